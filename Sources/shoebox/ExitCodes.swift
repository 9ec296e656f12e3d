import Foundation

extension ExitCode {
    /// What the code means, one sentence: `shoebox --help` lists every code with it, and the README's exit-code table
    /// must say the same (a test holds the two together).
    var meaning: String {
        switch self {
        case .success: "all documents done (accepted, in review or known duplicates)"
        case .finishedWithFailures: "finished, but some documents failed (each with its reason in `status` and `records.jsonl`)"
        case .usage:
            "usage error (unknown option, missing value, wrong arguments), or a file named on the command line (`import FILE`, `review --apply FILE`) that cannot be read or is not a regular file: one line on stderr"
        case .scanFolderMissing: "the scan folder does not exist or cannot be read"
        case .outputUnusable:
            "the output folder or its store cannot be used (not writable, `--out` is a file, `run.lock` is not a file, a path to `store.sqlite` longer than the 504 bytes SQLite opens: the message names the reason), an export cannot be written, or `run --log-json FILE` could not be written (the run's records are stored)"
        case .engineMissing: "the OCR engine or its language data is missing (the message names the `apt-get install` command)"
        case .pipelineFileInvalid:
            "the pipeline file, or a file `regress` is given (`--folders`, `--errata`), is invalid (the message names the file and the key)"
        case .regressionFailed: "`regress` found a wrong field (or, with `--baseline`, a field fell below it)"
        case .busy:
            "another `shoebox run`, `export`, `import` or `review --apply` holds the output folder's lock, or a PostgreSQL store's writers' lock from any machine (`--wait` waits for it instead), or took that lock while the server restarted under a running command, which stops; nothing else is exit 8"
        case .exportTooLarge: "`export` would pass `maxExportMegabytes` (default 2048): export a date range or one folder"
        case .originalChanged: "`export`: an original of an accepted record is missing or changed since it was read: restore it or re-run"
        case .importRefused:
            "`import`: the file is from a newer Shoebox (format version), is not a Shoebox store export, or holds a value a run would never write (a path with `..` or a leading `/`, a sha256 that is not 64 lowercase hex digits, a version below 1, an impossible date, amount or currency, a control character): the message names the document, its path and the field, and nothing is imported"
        case .folderSettingsInvalid: "`export`: a folder's `.shoebox.json` is invalid (the message names the file and the key)"
        case .zipNameClash: "`export`: two folders would get the same zip name (the message names both): rename one"
        case .portUnavailable:
            "`serve`: the port is taken (another program, or another `shoebox serve`, listens on it): give another with `--port`, or `--port 0` for any free one"
        case .storeUnreachable:
            "the PostgreSQL store (`--store`, `SHOEBOX_STORE`) cannot be reached or refused the login (a wrong URL, the server down, no such user or database): the message names the URL and the server's reason; nothing was changed"
        case .storeServerGone:
            "the PostgreSQL server went away while the command used it (stopped, network gone) and was not back within `SHOEBOX_STORE_RETRY_SECONDS` (default 60; a restart within it goes unseen): every finished write stays, a half-done one is rolled back; run the command again when the server is back, it takes up where it stopped"
        case .storeNewer:
            "the store's schema is from a newer Shoebox (the message names both versions): use that Shoebox, or another store; nothing was changed"
        case .storeServerFull:
            "the PostgreSQL server is out of room (disk full, out of memory, too many connections): nothing half-written is kept; free space or raise its limits, then run again"
        }
    }
}

extension Help {
    /// The `--help` list of every exit code, one per code, its meaning wrapped under it.
    static var exitCodes: String {
        ExitCode.allCases.map { code in
            let number = String(code.rawValue).padding(toLength: 4, withPad: " ", startingAt: 0)
            return wrap(code.meaning, width: 104, first: "  " + number, rest: "      ")
        }.joined(separator: "\n")
    }

    /// A command's `exit:` paragraph: each code's number from `ExitCode`, in the words of the command it is about.
    static func exits(_ items: KeyValuePairs<ExitCode, String>) -> String {
        wrap(items.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ") + ".", width: 104, first: "exit: ", rest: "      ")
    }

    /// `text` in lines of at most `width` characters (a word longer than that stands alone), the first line after
    /// `first`, the others after `rest`.
    static func wrap(_ text: String, width: Int, first: String, rest: String) -> String {
        var lines: [String] = []
        var line = first
        var empty = true
        for word in text.split(separator: " ") {
            if !empty, line.count + 1 + word.count > width {
                lines.append(line)
                line = rest
                empty = true
            }
            line += (empty ? "" : " ") + word
            empty = false
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }
}
