"""AA and RAR (the neighborhood-system paper): one criterion for single- and multi-label results."""

from evalkit import Covering, NeighborhoodSystem

U = "abcdefg"
ideal = Covering(U, [{"b", "c", "d"}, {"a", "e", "f"}, {"a", "g"}])  # a multi-label ideal (a is in two blocks)
methods = {
    "method 1": Covering(U, [{"b", "c"}, {"e", "f"}, {"a", "d", "g"}]),
    "method 2": Covering(U, [{"b", "c"}, {"e", "c", "f"}, {"a", "d", "g"}]),
}

system = NeighborhoodSystem(ideal)
results = {name: system.evaluate(result) for name, result in methods.items()}
for name, result in results.items():
    print(f"{name}: AA = {result.get_absolute_accuracy(exact=True)}, RAR = {result.get_relative_accuracy_rate(exact=True)}, "
          f"T1 = {result.get_t1()}, T2 = {result.get_t2()}")
    print(f"          {result.get_case()}")
print("method 1 vs method 2:", results["method 1"].compare(results["method 2"]))
