/// The version printed by --version and written into thumbnail cache entries.
public let pickerVersion = "0.2.0"
