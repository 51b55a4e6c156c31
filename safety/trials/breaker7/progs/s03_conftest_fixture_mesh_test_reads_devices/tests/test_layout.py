def test_per_replica_batch(mesh):
    global_batch = 16
    per_replica = global_batch // mesh.devices.shape[0]
    assert per_replica == 8
