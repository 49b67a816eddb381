"""The command line from a script: write a prediction file, run `evalkit report` and `evalkit aa-rar`.

The same commands work in a terminal (`evalkit report predictions.csv --format markdown`).
"""

import subprocess
import sys
import tempfile
from pathlib import Path

folder = Path(tempfile.mkdtemp(prefix="evalkit-cli-"))
predictions = folder / "predictions.csv"
predictions.write_text(
    "id,actual,predicted\n"
    "1,spam,spam\n2,spam,ham\n3,ham,ham\n4,ham,ham\n5,spam,spam\n6,ham,spam\n7,ham,ham\n",
    encoding="utf-8",
)


def evalkit(*arguments: str) -> str:
    result = subprocess.run([sys.executable, "-m", "evalkit", *arguments], capture_output=True, text=True, check=False)
    print(f"$ evalkit {' '.join(arguments)}   (exit status {result.returncode})")
    print(result.stdout or result.stderr)
    return result.stdout


evalkit("report", str(predictions))
evalkit("report", str(predictions), "--format", "markdown", "--measures", "precision,recall,f1_score")
evalkit("report", str(predictions), "--labels", "spam,ham,phishing", "--format", "csv")
evalkit("aa-rar", "--exact")  # Table 1 of the neighborhood-system paper, bundled with evalkit
evalkit("report", str(folder / "missing.csv"))  # a bad input: one line on stderr, exit status 2
