# Sphinx configuration for the suite's module pages (sphinx-build -b html doc doc/_build).
project = "ns-3 GPU-fabric and container-overlay module suite"
master_doc = "index"
exclude_patterns = ["_build", "replace.txt"]
html_theme = "alabaster"
