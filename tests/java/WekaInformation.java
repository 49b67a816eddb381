// Trains a classifier on the first two thirds of a shuffled ARFF file, evaluates it on the rest
// with weka.classifiers.Evaluation (priors: the training set's), and prints, as one JSON object,
// the training set's class weights, every test prediction (actual, class distribution, weight)
// and Weka's information, entropy and error numbers at full precision, with its summary, margin
// distribution and the first class's cost curve.
// tests/test_information_scores.py compares evalkit's InformationScores with these.
//
// Usage: java -cp weka.jar:. WekaInformation data.arff classifier.Name seed

import java.io.BufferedReader;
import java.io.FileReader;
import java.util.Random;

import weka.classifiers.Classifier;
import weka.classifiers.Evaluation;
import weka.classifiers.evaluation.CostCurve;
import weka.classifiers.evaluation.NominalPrediction;
import weka.core.FastVector;
import weka.core.Instances;

public class WekaInformation {

    public static void main(String[] args) throws Exception {
        Instances data = new Instances(new BufferedReader(new FileReader(args[0])));
        data.setClassIndex(data.numAttributes() - 1);
        data.randomize(new Random(Long.parseLong(args[2])));
        int cut = data.numInstances() * 2 / 3;
        Instances train = new Instances(data, 0, cut);
        Instances test = new Instances(data, cut, data.numInstances() - cut);
        Classifier classifier = Classifier.forName(args[1], new String[0]);
        classifier.buildClassifier(train);
        Evaluation evaluation = new Evaluation(train);
        evaluation.evaluateModel(classifier, test);
        int m = data.numClasses();

        StringBuilder out = new StringBuilder("{\n");
        double[] weights = new double[m];
        for (int k = 0; k < train.numInstances(); k++)
            if (!train.instance(k).classIsMissing()) weights[(int) train.instance(k).classValue()] += train.instance(k).weight();
        out.append("\"train_weights\": [");
        for (int i = 0; i < m; i++) out.append(i > 0 ? ", " : "").append(Json.number(weights[i]));
        out.append("],\n\"predictions\": [");
        FastVector predictions = evaluation.predictions();
        for (int k = 0; k < predictions.size(); k++) {
            NominalPrediction p = (NominalPrediction) predictions.elementAt(k);
            out.append(k > 0 ? ",\n  " : "").append("[").append(Json.number(p.actual())).append(", [");
            for (int i = 0; i < m; i++) out.append(i > 0 ? ", " : "").append(Json.number(p.distribution()[i]));
            out.append("], ").append(Json.number(p.weight())).append("]");
        }
        out.append("],\n");
        String[] names = {"KBInformation", "KBMeanInformation", "KBRelativeInformation", "priorEntropy", "SFPriorEntropy",
                          "SFMeanPriorEntropy", "SFSchemeEntropy", "SFMeanSchemeEntropy", "SFEntropyGain", "SFMeanEntropyGain",
                          "meanAbsoluteError", "rootMeanSquaredError", "meanPriorAbsoluteError", "rootMeanPriorSquaredError",
                          "relativeAbsoluteError", "rootRelativeSquaredError", "unclassified", "numInstances", "correct", "kappa"};
        double[] values = {evaluation.KBInformation(), evaluation.KBMeanInformation(), evaluation.KBRelativeInformation(),
                           evaluation.priorEntropy(), evaluation.SFPriorEntropy(), evaluation.SFMeanPriorEntropy(),
                           evaluation.SFSchemeEntropy(), evaluation.SFMeanSchemeEntropy(), evaluation.SFEntropyGain(),
                           evaluation.SFMeanEntropyGain(), evaluation.meanAbsoluteError(), evaluation.rootMeanSquaredError(),
                           evaluation.meanPriorAbsoluteError(), evaluation.rootMeanPriorSquaredError(),
                           evaluation.relativeAbsoluteError(), evaluation.rootRelativeSquaredError(), evaluation.unclassified(),
                           evaluation.numInstances(), evaluation.correct(), evaluation.kappa()};
        for (int k = 0; k < names.length; k++) out.append(Json.text(names[k] + "()")).append(": ").append(Json.number(values[k])).append(",\n");
        Instances cost = new CostCurve().getCurve(evaluation.predictions(), 0);  // the first class's cost lines: (0, FPR), (1, FNR) a threshold
        out.append("\"costCurve\": [");
        for (int k = 0; k < cost.numInstances(); k++) {
            out.append(k > 0 ? ", " : "").append("[");
            for (int j = 0; j < 3; j++) out.append(j > 0 ? ", " : "").append(Json.number(cost.instance(k).value(j)));
            out.append("]");
        }
        out.append("],\n");
        out.append("\"toCumulativeMarginDistributionString\": ").append(Json.text(evaluation.toCumulativeMarginDistributionString())).append(",\n");
        out.append("\"toSummaryString\": ").append(Json.text(evaluation.toSummaryString("", true))).append("\n}\n");
        System.out.print(out);
    }
}
