# botorch Penicillin.penicillin_vectorized, line 815. In the unmodified code the write at line 814
# (V, a Split output) raises first; this repro inserts "V = V.clone()" after the split so that
# the hazard at line 815 is what torch reports.
from penicillin_variant import load_penicillin, run
run(load_penicillin("V = V.clone()"))
