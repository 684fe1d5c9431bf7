import CMagic
import Searchlight
public enum FilesProbe { public static func v() -> Int32 { magic_version() } }
