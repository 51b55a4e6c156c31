def test_per_replica_batch(mesh):
    assert 16 // mesh.devices.shape[0] == 8
