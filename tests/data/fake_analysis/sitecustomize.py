# Test-only: put tests/data/fake_analysis on PYTHONPATH to lint with the fake analysis in a subprocess.
import fake_inplace_analysis

fake_inplace_analysis.install()
