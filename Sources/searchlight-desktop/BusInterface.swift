/// A D-Bus interface as its introspection XML says it: methods and their arguments, written
/// once as signatures (`"as terms"`: type, then name) rather than as XML by hand.
///
/// ```swift
/// let xml = BusInterface("org.kde.krunner1", methods: [
///     .init("Match", in: ["s query"], out: ["a(sssida{sv}) matches"]),
/// ]).introspection
/// ```
struct BusInterface {
    /// One method: its input and output arguments, each `"TYPE NAME"`.
    struct Method {
        var name: String
        var inputs: [String]
        var outputs: [String]

        init(_ name: String, in inputs: [String] = [], out outputs: [String] = []) {
            self.name = name
            self.inputs = inputs
            self.outputs = outputs
        }
    }

    var name: String
    var methods: [Method]

    init(_ name: String, methods: [Method]) {
        self.name = name
        self.methods = methods
    }

    /// The `<node>` document GDBus registers the object with (and checks every call against).
    var introspection: String {
        var xml = "<node>\n  <interface name=\"\(name)\">\n"
        for method in methods {
            xml += "    <method name=\"\(method.name)\">\n"
            for (direction, arguments) in [("in", method.inputs), ("out", method.outputs)] {
                for argument in arguments {
                    let parts = argument.split(separator: " ", maxSplits: 1)
                    xml += "      <arg type=\"\(parts[0])\" name=\"\(parts[1])\" direction=\"\(direction)\"/>\n"
                }
            }
            xml += "    </method>\n"
        }
        return xml + "  </interface>\n</node>"
    }
}
