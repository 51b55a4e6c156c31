import sys

sys.path.insert(0, "src")
from org.proj.train import main

main()
