"""Trials s1-s3: add-axis must be unsafe when another module reads MESH.devices; fix pkg/layers.py alone."""
import lib
R=lib.BASE["run.py"]
probe='''
from pkg.config import MESH

def first_size():
    return MESH.devices.shape[0]
'''
R2 = R.replace("from pkg.layers import residual","from pkg.layers import residual\nfrom pkg.probe import first_size").replace(
 "return jax.vmap(residual, spmd_axis_name=DATA)(xs), reference","return jax.vmap(residual, spmd_axis_name=DATA)(xs) * first_size(), reference * 2")
cases = {
 "s1": {"pkg/probe.py":probe, "run.py":R2},
 "s2": {"tools/report.py":'''
from pkg.config import MESH
print(MESH.devices.shape[0])
'''},
 "s3": {"pkg/probe.py":probe, "pkg/layers.py": lib.BASE["pkg/layers.py"].replace("from pkg.config import MESH","from pkg.config import MESH\nfrom pkg.probe import first_size").replace("return x + gelu_block(x) * jnp.float32(0.5)","return x + gelu_block(x) * jnp.float32(0.5) * first_size() / 2")},
}
for name, files in cases.items():
    for args in (["pkg/layers.py"], ["."]):
        r=lib.make(name,files)
        p=lib.spmdfix(r,"check","--no-cache","--output-format","full",*args)
        app=[l.strip()[:60] for l in p.stdout.splitlines() if "->" in l]
        print(name,args,p.returncode,app[:2])
    r=lib.make(name,files)
    p=lib.spmdfix(r,"fix","pkg/layers.py"); print(" fix layers:", p.stderr.strip().splitlines()[-1]); print(" ", lib.run_jax(r))
