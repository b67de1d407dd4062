// The layers below, seen by every file here and by what imports PickerCore
// (the picker, its library and tests name one module).
@_exported import PickerRemote
