from pkg import hooks
from pkg.train import main

main(on_step=hooks.log_layout)
