import ns.model

G = ns.config.MESH.devices.shape[0]
