"""A Deep Netts evaluation loop, ported line by line (see docs/pages/porting-from-java.md).

Java:
    ConfusionMatrix cm = new ConfusionMatrix(new String[] {"negative", "positive"});
    for (...) cm.inc(actualIdx, predictedIdx);
    ClassificationMetrics[] metrics = ClassificationMetrics.createFrom(cm);
    System.out.println(metrics[0]);
    System.out.println(ClassificationMetrics.average(metrics));
"""

from evalkit import ClassificationMetrics, ConfusionMatrix, EvaluationMetrics

outputs = [(0.9, 1), (0.2, 0), (0.7, 0), (0.4, 1), (0.8, 1), (0.1, 0), (0.6, 1), (0.3, 0)]

cm = ConfusionMatrix(["negative", "positive"])
for score, actual in outputs:
    predicted = 1 if score >= 0.5 else 0
    cm.inc(actual, predicted)

print(cm)
metrics = ClassificationMetrics.create_from(cm)
print(metrics[0])  # the positive class, labelled "positive"
print(ClassificationMetrics.average(metrics))
print("accuracy via visrec key:", metrics[0].get(EvaluationMetrics.ACCURACY))
