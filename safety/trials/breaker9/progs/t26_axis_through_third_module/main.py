from pkg.run import main

main()
