# botorch Penicillin.penicillin_vectorized, line 816. In the unmodified code the write at line 814
# (V, a Split output) raises first; this repro inserts "V, X = V.clone(), X.clone()" after the split so that
# the hazard at line 816 is what torch reports.
from penicillin_variant import load_penicillin, run
run(load_penicillin("V, X = V.clone(), X.clone()"))
