// Runs weka.classifiers.Evaluation on an ARFF file and prints, as one JSON object, the class
// values, every prediction (actual, predicted, class distribution, weight) and every number of
// Weka's summary, per-class table and confusion matrix at full precision (Double.toString gives
// the shortest text that reads back to the same double). tests/test_weka.py compares evalkit's
// numbers, computed from the same predictions, with these.
//
// Usage: java -cp weka.jar:. WekaReference data.arff classifier.Name folds seed

import java.io.BufferedReader;
import java.io.FileReader;
import java.util.Random;

import weka.classifiers.Classifier;
import weka.classifiers.Evaluation;
import weka.classifiers.evaluation.NominalPrediction;
import weka.core.FastVector;
import weka.core.Instances;

public class WekaReference {

    private static void field(StringBuilder out, String name, String value) {
        out.append(Json.text(name)).append(": ").append(value).append(",\n");
    }

    public static void main(String[] args) throws Exception {
        Instances data = new Instances(new BufferedReader(new FileReader(args[0])));
        data.setClassIndex(data.numAttributes() - 1);
        Classifier classifier = Classifier.forName(args[1], new String[0]);
        Evaluation evaluation = new Evaluation(data);
        evaluation.crossValidateModel(classifier, data, Integer.parseInt(args[2]), new Random(Long.parseLong(args[3])));
        int m = data.numClasses();

        StringBuilder out = new StringBuilder("{\n");
        StringBuilder classes = new StringBuilder("[");
        for (int i = 0; i < m; i++) classes.append(i > 0 ? ", " : "").append(Json.text(data.classAttribute().value(i)));
        field(out, "classes", classes.append("]").toString());

        FastVector predictions = evaluation.predictions();
        StringBuilder rows = new StringBuilder("[");
        for (int k = 0; k < predictions.size(); k++) {
            NominalPrediction p = (NominalPrediction) predictions.elementAt(k);
            StringBuilder distribution = new StringBuilder("[");
            for (int i = 0; i < m; i++) distribution.append(i > 0 ? ", " : "").append(Json.number(p.distribution()[i]));
            rows.append(k > 0 ? ",\n  " : "").append("[").append(Json.number(p.actual())).append(", ").append(Json.number(p.predicted()))
                .append(", ").append(distribution).append("], ").append(Json.number(p.weight())).append("]");
        }
        field(out, "predictions", rows.append("]").toString());

        String[] summary = {"correct", "incorrect", "pctCorrect", "pctIncorrect", "unclassified", "errorRate", "kappa",
                            "meanAbsoluteError", "rootMeanSquaredError", "numInstances",
                            "weightedTruePositiveRate", "weightedFalsePositiveRate", "weightedTrueNegativeRate",
                            "weightedFalseNegativeRate", "weightedPrecision", "weightedRecall", "weightedFMeasure",
                            "weightedAreaUnderROC"};
        double[] values = {evaluation.correct(), evaluation.incorrect(), evaluation.pctCorrect(), evaluation.pctIncorrect(),
                           evaluation.unclassified(), evaluation.errorRate(), evaluation.kappa(), evaluation.meanAbsoluteError(),
                           evaluation.rootMeanSquaredError(), evaluation.numInstances(), evaluation.weightedTruePositiveRate(),
                           evaluation.weightedFalsePositiveRate(), evaluation.weightedTrueNegativeRate(),
                           evaluation.weightedFalseNegativeRate(), evaluation.weightedPrecision(), evaluation.weightedRecall(),
                           evaluation.weightedFMeasure(), evaluation.weightedAreaUnderROC()};
        for (int k = 0; k < summary.length; k++) field(out, summary[k] + "()", Json.number(values[k]));

        String[] perClass = {"numTruePositives", "numFalsePositives", "numFalseNegatives", "numTrueNegatives",
                             "truePositiveRate", "falsePositiveRate", "trueNegativeRate", "falseNegativeRate",
                             "precision", "recall", "fMeasure", "areaUnderROC"};
        for (String name : perClass) {
            StringBuilder list = new StringBuilder("[");
            for (int i = 0; i < m; i++) {
                double value;
                switch (name) {
                    case "numTruePositives": value = evaluation.numTruePositives(i); break;
                    case "numFalsePositives": value = evaluation.numFalsePositives(i); break;
                    case "numFalseNegatives": value = evaluation.numFalseNegatives(i); break;
                    case "numTrueNegatives": value = evaluation.numTrueNegatives(i); break;
                    case "truePositiveRate": value = evaluation.truePositiveRate(i); break;
                    case "falsePositiveRate": value = evaluation.falsePositiveRate(i); break;
                    case "trueNegativeRate": value = evaluation.trueNegativeRate(i); break;
                    case "falseNegativeRate": value = evaluation.falseNegativeRate(i); break;
                    case "precision": value = evaluation.precision(i); break;
                    case "recall": value = evaluation.recall(i); break;
                    case "fMeasure": value = evaluation.fMeasure(i); break;
                    default: value = evaluation.areaUnderROC(i);
                }
                list.append(i > 0 ? ", " : "").append(Json.number(value));
            }
            field(out, name + "(i)", list.append("]").toString());
        }

        double[][] confusion = evaluation.confusionMatrix();
        StringBuilder matrix = new StringBuilder("[");
        for (int i = 0; i < m; i++) {
            matrix.append(i > 0 ? ", " : "").append("[");
            for (int j = 0; j < m; j++) matrix.append(j > 0 ? ", " : "").append(Json.number(confusion[i][j]));
            matrix.append("]");
        }
        field(out, "confusionMatrix()", matrix.append("]").toString());
        field(out, "toSummaryString()", Json.text(evaluation.toSummaryString()));
        field(out, "toClassDetailsString()", Json.text(evaluation.toClassDetailsString()));
        out.append(Json.text("toMatrixString()")).append(": ").append(Json.text(evaluation.toMatrixString())).append("\n}\n");
        System.out.print(out);
    }
}
