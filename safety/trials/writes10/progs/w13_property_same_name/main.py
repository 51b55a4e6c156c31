from pkg.train import main

main()
