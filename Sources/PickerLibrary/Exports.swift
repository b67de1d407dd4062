// The layer below, seen by every file here and by what imports this one.
@_exported import PickerBase
