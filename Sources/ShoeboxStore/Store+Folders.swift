public import ShoeboxCore

extension RecordStore {
    /// The categories the folder of `source` allows (`categories(forFolder:)`).
    public func categories(forFolderOf source: String) -> [String] {
        guard source.contains("/"), let folder = source.split(separator: "/").first.map(String.init) else { return [] }
        return categories(forFolder: folder)
    }

    /// The categories `folder` allows (its `<scans>/<folder>/.shoebox.json`), for checking a category a person types;
    /// empty when the folder sets none, has no settings file, or the file cannot be read (the export names a broken
    /// one).
    public func categories(forFolder folder: String) -> [String] {
        guard !folder.isEmpty, let root = try? root(ofFolder: folder),
            case .success(let settings) = FolderSettings.read(folderPath: PathText.joined(root, folder))
        else { return [] }
        return settings.categories
    }
}

extension Store {
    /// The scan root the first source of `folder` read from a scan root was found under.
    public func root(ofFolder folder: String) throws(StoreError) -> String? {
        try wrap { () throws(DatabaseError) in
            try db.query("SELECT root FROM sources WHERE folder = ? AND root <> '' ORDER BY id LIMIT 1", [.text(folder)]).first?.first?.text
        }
    }
}
