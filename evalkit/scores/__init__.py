"""Scores: results of scores and probabilities rather than decisions.

Threshold curves and their areas (``curves``), calibration (``calibration``), operating
points (``operating``), gains and lift (``gains``), ranking measures (``ranking``), costs
(``costs``) and the per-class losses of probabilities (``scoring``).

May import: the engine, measures and results.
"""
