# botorch Penicillin.penicillin_vectorized, line 826. In the unmodified code the write at line 814
# (V, a Split output) raises first; this repro inserts "V, X, S = V.clone(), X.clone(), S.clone()" after the split so that
# the hazard at line 826 is what torch reports.
from penicillin_variant import load_penicillin, run
run(load_penicillin("V, X, S = V.clone(), X.clone(), S.clone()"))
