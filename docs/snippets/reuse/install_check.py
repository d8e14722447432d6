import pkgutil
import subprocess
import sys
from importlib.metadata import requires

import glassgrad

# Every requirement belongs to an extra: a plain install adds nothing.
requirements = requires("glassgrad") or []
plain = [r for r in requirements if "extra ==" not in r]
assert plain == [], plain
print("requirements outside an extra:", plain)

# Import every module but glassgrad.torch_* and glassgrad.viz in a
# fresh interpreter: neither torch nor graphviz gets loaded.
light = sorted(
    m.name for m in pkgutil.walk_packages(glassgrad.__path__, "glassgrad.")
    if not m.name.startswith(("glassgrad.torch_", "glassgrad.viz"))
)
probe = (f"import sys, {', '.join(light)}; heavy = ('torch', 'graphviz',"
         " 'numpy'); print([m for m in heavy if m in sys.modules])")
run = subprocess.run([sys.executable, "-c", probe],
                     capture_output=True, text=True, check=True)
assert run.stdout.strip() == "[]", run.stdout
print("imported:", ", ".join(name.split(".")[-1] for name in light))
print("heavy modules loaded:", run.stdout.strip())
