// MOA's classification evaluators on a stream given as arguments, for evalkit's tests.
//   java -cp moa.jar:. MoaEvaluators CLASSES WIDTH ALPHA actual:predicted ...
// prints one line per evaluator and measurement: "basic|window|fading|adwin <name>=<value>"
import com.yahoo.labs.samoa.instances.Attribute;
import com.yahoo.labs.samoa.instances.DenseInstance;
import com.yahoo.labs.samoa.instances.Instance;
import com.yahoo.labs.samoa.instances.Instances;
import java.util.ArrayList;
import java.util.List;
import moa.core.InstanceExample;
import moa.core.Measurement;
import moa.evaluation.AdwinClassificationPerformanceEvaluator;
import moa.evaluation.BasicClassificationPerformanceEvaluator;
import moa.evaluation.FadingFactorClassificationPerformanceEvaluator;
import moa.evaluation.WindowClassificationPerformanceEvaluator;

public class MoaEvaluators {
    public static void main(String[] args) {
        int classes = Integer.parseInt(args[0]);
        List<String> values = new ArrayList<>();
        for (int k = 0; k < classes; k++) values.add("c" + k);
        List<Attribute> attributes = new ArrayList<>();
        attributes.add(new Attribute("x"));
        attributes.add(new Attribute("class", values));
        Instances header = new Instances("stream", attributes, 0);
        header.setClassIndex(1);

        BasicClassificationPerformanceEvaluator basic = new BasicClassificationPerformanceEvaluator();
        WindowClassificationPerformanceEvaluator window = new WindowClassificationPerformanceEvaluator();
        window.widthOption.setValue(Integer.parseInt(args[1]));
        FadingFactorClassificationPerformanceEvaluator fading = new FadingFactorClassificationPerformanceEvaluator();
        fading.alphaOption.setValue(Double.parseDouble(args[2]));
        AdwinClassificationPerformanceEvaluator adwin = new AdwinClassificationPerformanceEvaluator();
        BasicClassificationPerformanceEvaluator[] evaluators = {basic, window, fading, adwin};
        String[] names = {"basic", "window", "fading", "adwin"};
        for (BasicClassificationPerformanceEvaluator evaluator : evaluators) {
            evaluator.precisionRecallOutputOption.set();
            evaluator.precisionPerClassOption.set();
            evaluator.recallPerClassOption.set();
            evaluator.f1PerClassOption.set();
            evaluator.reset(); // not prepareForUse: the fading evaluator's options clash there (two named 'a')
        }
        for (int k = 3; k < args.length; k++) {
            String[] pair = args[k].split(":");
            Instance instance = new DenseInstance(1.0, new double[] {0.0, Double.parseDouble(pair[0])});
            instance.setDataset(header);
            double[] votes = new double[classes];
            votes[Integer.parseInt(pair[1])] = 1.0;
            for (BasicClassificationPerformanceEvaluator evaluator : evaluators) {
                evaluator.addResult(new InstanceExample(instance), votes);
            }
        }
        for (int e = 0; e < evaluators.length; e++) {
            for (Measurement measurement : evaluators[e].getPerformanceMeasurements()) {
                System.out.println(names[e] + " " + measurement.getName() + "=" + measurement.getValue());
            }
        }
    }
}
