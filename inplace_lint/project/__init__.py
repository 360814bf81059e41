"""The program around a file: its root, where its imports lead, a summary store that follows edits.

The base of the whole-program analysis (issue 23): the analysis will keep one summary per file here.
"""
