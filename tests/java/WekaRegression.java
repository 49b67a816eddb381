// Trains a Weka regressor on an ARFF file, evaluates it with weka.classifiers.Evaluation on the
// same data or on a test file, and prints, as one JSON object, the training data's class values
// and weights (Evaluation's priors come from them), every prediction of the evaluated data
// (actual, predicted, weight) and Weka's numeric summary at full precision (Double.toString gives
// the shortest text that reads back to the same double). tests/test_regression_porting.py
// compares evalkit's numbers, computed from the same predictions, with these.
//
// Usage: java -cp weka.jar:. WekaRegression train.arff classifier.Name [test.arff]

import java.io.BufferedReader;
import java.io.FileReader;

import weka.classifiers.Classifier;
import weka.classifiers.Evaluation;
import weka.core.Instance;
import weka.core.Instances;

public class WekaRegression {

    public static void main(String[] args) throws Exception {
        Instances train = new Instances(new BufferedReader(new FileReader(args[0])));
        train.setClassIndex(train.numAttributes() - 1);
        Instances data = train;
        if (args.length > 2) {
            data = new Instances(new BufferedReader(new FileReader(args[2])));
            data.setClassIndex(data.numAttributes() - 1);
        }
        Classifier classifier = Classifier.forName(args[1], new String[0]);
        classifier.buildClassifier(train);
        Evaluation evaluation = new Evaluation(train);  // the priors (the mean of the class) are the training data's
        evaluation.evaluateModel(classifier, data);

        StringBuilder out = new StringBuilder("{\n\"train\": [");
        for (int k = 0; k < train.numInstances(); k++) {
            Instance instance = train.instance(k);
            out.append(k > 0 ? ", " : "").append("[").append(Json.number(instance.classValue())).append(", ")
                .append(Json.number(instance.weight())).append("]");
        }
        out.append("],\n\"predictions\": [");
        for (int k = 0; k < data.numInstances(); k++) {
            Instance instance = data.instance(k);
            out.append(k > 0 ? ",\n  " : "").append("[").append(Json.number(instance.classValue())).append(", ")
                .append(Json.number(classifier.classifyInstance(instance))).append(", ").append(Json.number(instance.weight())).append("]");
        }
        out.append("],\n");
        String[] names = {"correlationCoefficient", "meanAbsoluteError", "rootMeanSquaredError", "relativeAbsoluteError",
                          "rootRelativeSquaredError", "meanPriorAbsoluteError", "rootMeanPriorSquaredError", "numInstances"};
        double[] values = {evaluation.correlationCoefficient(), evaluation.meanAbsoluteError(), evaluation.rootMeanSquaredError(),
                           evaluation.relativeAbsoluteError(), evaluation.rootRelativeSquaredError(),
                           evaluation.meanPriorAbsoluteError(), evaluation.rootMeanPriorSquaredError(), evaluation.numInstances()};
        for (int k = 0; k < names.length; k++) {
            out.append("\"").append(names[k]).append("()\": ").append(Json.number(values[k])).append(k + 1 < names.length ? ",\n" : "\n");
        }
        System.out.println(out.append("}").toString());
    }
}
