// MOA's ADWIN detector (moa.classifiers.core.driftdetection.ADWIN) on the numbers of standard
// input, one per line, for evalkit's tests: prints "width estimation change" after each.
//   java -cp moa.jar:. MoaAdwin DELTA CLOCK < values
import java.io.BufferedReader;
import java.io.InputStreamReader;
import moa.classifiers.core.driftdetection.ADWIN;

public class MoaAdwin {
    public static void main(String[] args) throws Exception {
        ADWIN adwin = new ADWIN(Double.parseDouble(args[0]));
        adwin.setClock(Integer.parseInt(args[1]));
        BufferedReader input = new BufferedReader(new InputStreamReader(System.in));
        StringBuilder out = new StringBuilder();
        for (String line = input.readLine(); line != null; line = input.readLine()) {
            boolean change = adwin.setInput(Double.parseDouble(line.trim()));
            out.append(adwin.getWidth()).append(' ').append(Double.toString(adwin.getEstimation())).append(' ').append(change).append('\n');
        }
        System.out.print(out);
    }
}
