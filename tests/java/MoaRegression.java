// MOA's BasicRegressionPerformanceEvaluator on the samples of standard input, one "target
// prediction weight" a line, for evalkit's tests: after each sample, one line of its seven
// measurements, "name=value" separated by tabs.
//   java -cp moa.jar:. MoaRegression NUM_INPUTS < samples
import com.yahoo.labs.samoa.instances.Attribute;
import com.yahoo.labs.samoa.instances.DenseInstance;
import com.yahoo.labs.samoa.instances.Instance;
import com.yahoo.labs.samoa.instances.Instances;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.List;
import moa.core.InstanceExample;
import moa.core.Measurement;
import moa.evaluation.BasicRegressionPerformanceEvaluator;

public class MoaRegression {
    public static void main(String[] args) throws Exception {
        int inputs = Integer.parseInt(args[0]);
        List<Attribute> attributes = new ArrayList<>();
        for (int a = 0; a < inputs; a++) attributes.add(new Attribute("x" + a));
        attributes.add(new Attribute("y"));
        Instances header = new Instances("stream", attributes, 0);
        header.setClassIndex(inputs);
        BasicRegressionPerformanceEvaluator evaluator = new BasicRegressionPerformanceEvaluator();
        evaluator.reset();
        BufferedReader input = new BufferedReader(new InputStreamReader(System.in));
        StringBuilder out = new StringBuilder();
        for (String line = input.readLine(); line != null; line = input.readLine()) {
            String[] sample = line.trim().split(" ");
            double[] values = new double[inputs + 1];
            values[inputs] = Double.parseDouble(sample[0]);
            Instance instance = new DenseInstance(Double.parseDouble(sample[2]), values);
            instance.setDataset(header);
            evaluator.addResult(new InstanceExample(instance), new double[] {Double.parseDouble(sample[1])});
            Measurement[] measurements = evaluator.getPerformanceMeasurements();
            for (int k = 0; k < measurements.length; k++) {
                out.append(k > 0 ? "\t" : "").append(measurements[k].getName()).append('=').append(Double.toString(measurements[k].getValue()));
            }
            out.append('\n');
        }
        System.out.print(out);
    }
}
