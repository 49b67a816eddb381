import weka.experiment.PairedStatsCorrected;

/**
 * Weka's corrected resampled t-test (the core of the Experimenter's PairedCorrectedTTester):
 * args are the test/train ratio, the significance level, then "x,y" pairs of per-run scores.
 * Prints {"mean": ..., "p": ..., "significance": -1|0|1} as JSON.
 */
public class WekaPairedTest {
    public static void main(String[] args) {
        PairedStatsCorrected stats = new PairedStatsCorrected(Double.parseDouble(args[1]), Double.parseDouble(args[0]));
        for (int i = 2; i < args.length; i++) {
            String[] pair = args[i].split(",");
            stats.add(Double.parseDouble(pair[0]), Double.parseDouble(pair[1]));
        }
        stats.calculateDerived();
        System.out.println("{\"mean\": " + stats.differencesStats.mean + ", \"p\": " + stats.differencesProbability
                + ", \"significance\": " + stats.differencesSignificance + "}");
    }
}
