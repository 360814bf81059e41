"""Load selected top-level functions/classes verbatim from a library source file
(library can't be imported here: missing deps) and exec them in a given namespace."""
import ast
import os

# the unpacked wheels eval.realcode.precision fetched
R = os.environ.get('INPLACE_LINT_REALCODE_CACHE',
                   os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '.cache', 'realcode')) + '/'
def load(relfile, names, ns):
    src = open(R + relfile).read()
    tree = ast.parse(src)
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name in names:
            seg = ast.get_source_segment(src, node)
            # include decorators
            if node.decorator_list:
                start = node.decorator_list[0].lineno
                seg = "\n".join(src.splitlines()[start-1:node.end_lineno])
            code = compile("\n"*(node.lineno-1 if not node.decorator_list else node.decorator_list[0].lineno-1) + seg, R + relfile, "exec")
            exec(code, ns)
    return ns
