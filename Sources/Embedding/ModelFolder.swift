import SystemCalls
import SystemPackage

/// Where the embedding model's folder (`model.bin` and its licence) is looked for.
public enum ModelFolder {
    /// The folder's name under a `models` directory.
    public static let name = "multilingual-e5-small"

    /// The first of these folders that holds `model.bin`:
    /// 1. `configured` (the configuration's setting), as given;
    /// 2. `$SEARCHLIGHT_MODEL_DIR`, as given;
    /// 3. `$XDG_DATA_HOME/searchlight/models/NAME` (default `~/.local/share/…`);
    /// 4. `PREFIX/share/searchlight/models/NAME`, where the running executable is `PREFIX/bin/…`;
    /// 5. `/usr/share/searchlight/models/NAME`.
    ///
    /// A configured folder, or one named by the environment, is returned even when it holds no
    /// model, so that loading it says what is missing where the person said to look.
    public static func find(configured: FilePath?, environment: [String: String]) -> FilePath? {
        if let configured { return configured }
        if let named = environment["SEARCHLIGHT_MODEL_DIR"], !named.isEmpty { return FilePath(named) }
        return candidates(environment: environment).first { holdsModel($0) }
    }

    /// The folders searched when neither a configured folder nor `$SEARCHLIGHT_MODEL_DIR` is given.
    public static func candidates(environment: [String: String]) -> [FilePath] {
        var folders: [FilePath] = []
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            folders.append(FilePath(data).appending("searchlight/models/\(name)"))
        } else if let home = environment["HOME"], !home.isEmpty {
            folders.append(FilePath(home).appending(".local/share/searchlight/models/\(name)"))
        }
        if let executable = executablePath() {
            let prefix = executable.removingLastComponent().removingLastComponent()
            folders.append(prefix.appending("share/searchlight/models/\(name)"))
        }
        folders.append(FilePath("/usr/share/searchlight/models").appending(name))
        return folders
    }

    static func holdsModel(_ folder: FilePath) -> Bool {
        (try? FileDescriptor.open(folder.appending(EmbeddingModel.fileName), .readOnly, options: [.closeOnExec]))
            .map { descriptor in
                try? descriptor.close()
                return true
            } ?? false
    }

    /// The running executable (`/proc/self/exe`). The corresponding C function is `readlink(2)`.
    static func executablePath() -> FilePath? {
        SystemCall.executablePath.map { FilePath($0) }
    }
}
