"""Scores: results of scores and probabilities rather than decisions.

Threshold curves and their areas (``curves``), calibration (``calibration``), operating
points (``operating``), gains and lift (``gains``), ranking measures (``ranking``), costs
(``costs``), the per-class losses of probabilities (``scoring``), selective prediction's
risk-coverage curve (``selective``) and the coverage of prediction sets and intervals
(``conformal``).

May import: the engine, measures and results.
"""
