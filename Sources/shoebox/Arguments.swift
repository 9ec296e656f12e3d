/// A usage error: one line on stderr, exit code 2.
struct UsageError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// Hand-written GNU-style argument parsing (no package can be fetched): `--name value`, `--name=value`,
/// boolean flags, positionals, and `--` to end options.
struct Arguments {
    var positionals: [String] = []
    var values: [String: String] = [:]
    var flags: Set<String> = []

    init(_ args: [String], verb: String, valueOptions: Set<String>, flagOptions: Set<String>) throws(UsageError) {
        var i = 0
        var onlyPositionals = false
        while i < args.count {
            let arg = args[i]
            i += 1
            if onlyPositionals || !arg.hasPrefix("-") || arg == "-" {
                positionals.append(arg)
                continue
            }
            if arg == "--" {
                onlyPositionals = true
                continue
            }
            var name = arg
            var inline: String?
            if let eq = arg.firstIndex(of: "=") {
                name = String(arg[..<eq])
                inline = String(arg[arg.index(after: eq)...])
            }
            if name == "-h" { name = "--help" }
            if flagOptions.contains(name) || name == "--help" {
                guard inline == nil else {
                    throw UsageError(message: "shoebox \(verb): option '\(name)' takes no value. See 'shoebox \(verb) --help'.")
                }
                flags.insert(name)
            } else if valueOptions.contains(name) {
                if let inline {
                    values[name] = inline
                } else {
                    guard i < args.count, !(args[i].hasPrefix("--") && args[i].count > 2) else {
                        throw UsageError(message: "shoebox \(verb): option '\(name)' needs a value. See 'shoebox \(verb) --help'.")
                    }
                    values[name] = args[i]
                    i += 1
                }
            } else {
                throw UsageError(message: "shoebox \(verb): unknown option '\(name)'. See 'shoebox \(verb) --help'.")
            }
        }
    }

    /// A whole-number option within its documented `range` (`--help` and the README give it).
    func int(_ name: String, verb: String, range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let v = values[name] else { return nil }
        guard let n = Int(v), range.contains(n) else {
            throw UsageError(
                message: "shoebox \(verb): option '\(name)' needs a whole number from \(range.lowerBound) to \(range.upperBound), not '\(v)'.")
        }
        return n
    }
}
