import sys
sys.path.insert(0, 'src')
from pkg.train import main

main()
