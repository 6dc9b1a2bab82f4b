from nvfuser import FusionDefinition, DataType

print("nothing to see", DataType.Float)
