"""minigrad's messages in English, part three: the files' and the settings' details
(minigrad.files, minigrad.settings, minigrad.optim.lr_scheduler) and the drawings' and the
explorer's (minigrad.viz). Merged into en.py's MESSAGES; Japanese: ja_tools.py, same keys."""

TOOLS = {
    # ---- a file whose folder is missing (minigrad.files.no_directory) -------------------------
    "files.no_directory": ("cannot {verb} {path!r}: no directory {folder!r} (create it first: "
                           "mkdir -p {command})"),
    "files.cannot_write": "cannot write {path!r}: {reason}",
    "files.verb_write": "write",
    "files.verb_save_to": "save to",
    "files.verb_draw": "draw",

    # ---- a value too large to show (minigrad.settings, minigrad.optim.lr_scheduler) -----------
    "setting.big_int": "an int of {bits} bits",

    # ---- drawing with Graphviz (minigrad.viz.render) ------------------------------------------
    "render.not_a_format": ("cannot draw {path}: .{format} is not a format Graphviz writes "
                            "(.svg, .png, .pdf, .dot, ...)"),
    "render.dot_failed": "dot -T{format} failed",
    "render.pygraphviz_failed": "pygraphviz could not render {format}",
    "render.no_message": "no message",
    "render.empty": "{path} is empty: there is no graph in it to draw",
    "render.none_available": ("none: pip install pygraphviz, or install Graphviz (apt install "
                              "graphviz, brew install graphviz, winget install graphviz)"),
    "render.no_suffix": "render: {path} has no suffix; pass format= (svg, png, pdf, dot)",
    "render.not_our_dot": ("{dot} exists and is not the DOT text of {name}; pass overwrite=True "
                           "to replace it"),
    "render.not_our_picture": ("{path} exists and no earlier drawing wrote it (its DOT text {dot} "
                               "is not beside it); pass overwrite=True to replace it"),
    "render.how_to_get_one": ("install one: `pip install pygraphviz` (its wheels bundle Graphviz "
                              "on Linux, macOS and Windows x86-64), or the Graphviz package of "
                              "your system (apt install graphviz, brew install graphviz, winget "
                              "install graphviz)"),
    "render.smaller": ("draw a smaller graph: fold scopes into one box each (draw_graph(..., "
                       "collapse=[...])) or keep the boxes nearest the root (draw_graph(..., "
                       "max_nodes=...))"),
    "render.no_graphviz": ("no Graphviz to render with: neither the `dot` program nor the "
                           "pygraphviz package was found; {how}"),
    "render.no_dot": "the `dot` program is not on the PATH",
    "render.no_pygraphviz": "the pygraphviz package is not installed",
    "render.no_engine": "cannot render with engine={engine!r}: {what}; {how}",
    "render.too_many_boxes": ("the graph has {boxes} boxes, more than the {most} Graphviz lays out "
                              "in reasonable time (minigrad.viz.render.MAX_BOXES; a frame of a "
                              "scope counts as a box); {smaller}"),
    "render.too_deep": ("the graph has frames nested {deepest} deep, more than the {most} Graphviz "
                        "is given (minigrad.viz.dot.MAX_SCOPE_DEPTH); {smaller}"),
    "render.stopped": ("Graphviz ({engine}) was stopped after {seconds} s laying out {boxes} boxes "
                       "(minigrad.viz.render.TIMEOUT); {smaller}"),
    "render.dot_text_in": "{error}. The DOT text is in {path}",

    # ---- the Japanese font (minigrad.viz.fonts) -----------------------------------------------
    "fonts.missing": ("Graphviz draws these Japanese labels as empty boxes unless a system font "
                      "has them: the project's Japanese font is not installed; {how} "
                      "(or install a CJK font, e.g. apt install fonts-noto-cjk)"),

    # ---- python -m minigrad.viz's own options (minigrad.viz.__main__) -------------------------
    "viz.at_least_one": "--{option} must be at least 1",
    "viz.seed": "--seed must be 0 or more, not {seed}",

    # ---- the explorer's page (minigrad.viz.explorer) ------------------------------------------
    "explorer.not_html": "{path}: the explorer writes an HTML page; give it a name ending in .html",
    "explorer.is_a_directory": "{path} is a directory; give the page a file name",
    "explorer.collapse_not_names": "must be scope names (a string or a list of them), not {type}",
    "explorer.collapse_not_strings": "must be scope names (strings), not {type} ({name!r})",
    "explorer.no_such_scope": "names no scope {unknown} of this graph; its scopes: {listed}",
    "explorer.no_scopes": "none",
    "explorer.list_joiner": ", ",
    "explorer.bad_lang": "{where}: lang must be one of {languages}, not {lang}",

    # ---- a checkpoint or results file refused as it is read (minigrad.npz_reader) -------------
    "npz.two_members": "{path!r} is refused: it holds two members named {name!r}",
    "npz.too_large": ("{path!r} is too large to load: its member {member!r} holds {size}, which "
                      "passes {limit}"),
    "npz.truncated": ("{path!r} is truncated or corrupt: its member {member!r} ends after {read} "
                      "of its {nbytes} bytes"),
    "npz.longer": "{path!r} is corrupt: its member {member!r} holds more than its {nbytes} bytes",
    "npz.claims": ("{path!r} is corrupt: its member {member!r} claims {claimed} bytes from "
                   "{stored} stored, more than they can hold"),
    "npz.version": ("{path!r} is corrupt: its member {member!r} is a .npy file of version "
                    "{version}, which a checkpoint never holds"),
    "npz.pickled": ("{path!r} holds pickled data in {member!r}, which is never loaded (refused; "
                    "nothing in it was run)"),
    "npz.dtype": ("{path!r} is corrupt: its member {member!r} holds an array of dtype {dtype}, "
                  "which a checkpoint never holds there"),
    "npz.declares": ("{path!r} is corrupt: its member {member!r} declares {count} values of "
                     "{dtype} ({size}) but holds {held}"),
    "npz.bytes": "{count} bytes",

    # ---- a checkpoint that is not one, or is corrupt (minigrad.checkpoint.load) ---------------
    "checkpoint.metadata_too_deep": ("{path!r} is refused: its metadata is nested deeper than the "
                                     "{depth} levels a checkpoint may have"),
    "checkpoint.object_too_deep": ("{path!r} is refused: its object is nested deeper than the "
                                   "{depth} levels a checkpoint may have"),
    "checkpoint.truncated": "{path!r} is truncated or corrupt: {error}",
    "checkpoint.no_metadata": ("{path!r} is not a minigrad checkpoint (an .npz archive without "
                               "metadata, e.g. written by np.savez)"),
    "checkpoint.metadata_not_string": "{path!r} is corrupt: its metadata is not one string",
    "checkpoint.no_format": ("{path!r} is not a minigrad checkpoint (its metadata does not name "
                             "the format)"),
    "checkpoint.version": ("{path!r} is a minigrad checkpoint of version {found}; this minigrad "
                           "reads version {version}"),
    "checkpoint.missing_array": "{path!r} is corrupt: the array {name!r} is missing",
    "checkpoint.unexpected": ("{path!r} is corrupt: unexpected entry {entry} in its metadata, at "
                              "{where}"),
    "checkpoint.tagged": ("{path!r} is corrupt: in its metadata, {where} is tagged {kind!r}, "
                          "which holds {expected}, but holds {found}"),
    "checkpoint.in_all": "{size} in all",

    # ---- the graders' cases, as a verdict names them (minigrad.grade.exercises) ---------------
    "cases.one_example": "one example",
    "cases.batch_of_3": "a batch of 3",
    "cases.first_step": "the first step: h = 0",
    "cases.large_weights": "large weights: saturated gates",
    "cases.rows_of_6": "rows of 6",
    "cases.input_3d": "a 3-d input",
    "cases.barely_vary": "rows that barely vary (var < eps)",
    "cases.eps": "eps=0.1",
    "cases.rows": "rows, axis=-1",
    "cases.columns": "columns, axis=0",
    "cases.keepdims": "keepdims=True, axis=1",
    "cases.one_vector": "one vector (a 0-d output)",
    "cases.huge_values": "huge values (exp overflows)",

    # ---- a file to read that is not a regular one (minigrad.files) ----------------------------
    "files.not_regular": ("{path!r} is not {what} ({kind}, not a regular file; refused, nothing "
                          "read)"),
    "files.too_many_bytes": "{path!r} holds more than the {most:,} bytes {what} takes; refused",
    "files.missing": "no such file",
    "files.is_directory": "is a directory, not a {what}",
    "files.is_special": "is {kind}, not a regular file",
    "files.what_py": ".py file",
    "files.what_dot": "a DOT file",
    "files.what_file": "file",
    "files.what_checkpoint": "a minigrad checkpoint",
    "files.what_results": "a results file",
    "files.kind_directory": "a directory",
    "files.kind_fifo": "a FIFO",
    "files.kind_device": "a device",
    "files.kind_socket": "a socket",
    "files.kind_not_regular": "not a regular file",
    "files.kind_special": "special",

    # ---- the system's reasons and zipfile's, said in the language (minigrad.files) ----------
    # English as the system and Python's zipfile say them (os.strerror on Linux and macOS)
    "os.ENOENT": "No such file or directory",
    "os.ENOTDIR": "Not a directory",
    "os.EISDIR": "Is a directory",
    "os.EACCES": "Permission denied",
    "os.EPERM": "Operation not permitted",
    "os.ENAMETOOLONG": "File name too long",
    "os.EROFS": "Read-only file system",
    "os.ENOSPC": "No space left on device",
    "os.EEXIST": "File exists",
    "os.ELOOP": "Too many levels of symbolic links",
    "os.error": "[Errno {number}] {reason}: {path!r}",
    "zip.not_zip": "File is not a zip file",
    "zip.bad_crc": "Bad CRC-32 for file {member}",
    "zip.central_magic": "Bad magic number for central directory",
    "zip.central_truncated": "Truncated central directory",
    "zip.header_magic": "Bad magic number for file header",
    "zip.header_truncated": "Truncated file header",
    "zip.name_differs": ("the name of member {member} differs between the archive's directory and "
                         "the member's own header"),
    "zip.extra_field": "a member's extra field is corrupt",
    "zip.central_offset": "Bad offset for central directory",
    "zip.compression": "a member is compressed with a method this reader does not support",
    "zip.offset": "an offset in the archive points outside the file",
    "zip.other": "{text}",
    "zip.npy_header": "{text}",
    "zip.ended": "a member ends before the size its header declares",
    "files.not_a_folder": "cannot {verb} {path!r}: {folder!r} is a file, not a folder",
    "render.not_utf8": "{path}: not UTF-8 text (byte 0x{byte:02x} at byte {position} of the file)",
    "grade.cannot_look": "cannot read {path}: {reason}",
    "render.no_suffix_out": ("cannot draw {path}: it has no suffix; end --out with the format's: "
                             ".svg, .png, .pdf or .dot"),

    # ---- the recurrent-layer contract (minigrad.nn.recurrent) ---------------------------------
    "recurrent.time_step": "time step {t}",
    "recurrent.tuple_of": "{kind} of {count}",
    "recurrent.step_parts": ("{name}: at {where}, cell(x, state) returned a {got}, but "
                             "state_parts {state_parts} make the state {count} tensor(s), as the "
                             "state it was given"),
    "recurrent.step_shape": ("{name}: at {where}, cell(x, state) returned {part} {new_shape} "
                             "{new_dtype}, but the state it was given has {part} {old_shape} "
                             "{old_dtype}: a step keeps the state's shape (batch, hidden_size) "
                             "and dtype"),
    "recurrent.pass_a_layer": ("check_recurrent: pass a layer, e.g. {cls}({input_size!r}, "
                               "{hidden_size!r}), not the class {cls}"),
    "recurrent.size": "check_recurrent: {argument} should be a whole number >= 1, got {size!r}",
    "recurrent.outputs_shape": ("{name}: forward returned outputs of shape {found}, expected "
                                "(batch, time, hidden_size) = (2, 3, {hidden_size})"),
    "recurrent.ignores_mask": ("{name}: forward ignores the mask: a sequence padded on the left "
                               "ends in another state than the same sequence alone (a padded step "
                               "must leave the state as it was; nn.Recurrent's forward does this)"),
    "recurrent.disagree": ("{name}: cell and forward disagree: one cell step from zeros should "
                           "give forward's first output"),
    "recurrent.state_parts": ("{name}: state_parts should name the state's parts, hidden first, "
                              "as a tuple of strings (('h',) or ('h', 'c')), found "
                              "{state_parts!r}"),
    "recurrent.size_attribute": ("{name}: layer.{attribute} is {found!r}, expected {size!r} (a "
                                 "layer keeps the sizes it is made with as attributes)"),
    "recurrent.no_cell": "{name}: no cell(x, state) method (one step of the layer)",
    "recurrent.no_mask": ("{name}: forward takes no mask, but the encoder reads padded batches: "
                          "write forward(x, state=None, mask=None), or subclass nn.Recurrent, "
                          "whose forward takes one"),
    "recurrent.raised": "{name}: {what} raised {kind}: {error}{where}",
    "recurrent.raised_at": " ({file}, line {line})",
    "recurrent.cell_takes_one": ("{name}: state_parts {state_parts} make the state a tuple of "
                                 "{count} tensors, but cell(x, state) takes one tensor (and "
                                 "returns one): name one part, state_parts = ('h',), or make the "
                                 "cell take and return the tuple"),
    "recurrent.state_kind": ("{name}: {where} returned a state that is a {got}, but state_parts "
                             "{state_parts} make it {want}"),
    "recurrent.one_tensor": "one tensor",
    "recurrent.tuple_of_tensors": "a tuple of {count} tensors",
    "recurrent.state_shape": ("{name}: {where} returned {part} of shape {found}, expected "
                              "(batch, hidden_size) = ({batch}, {hidden_size})"),
    "recurrent.state_not_finite": ("{name}: {where} returned {part} holding NaN or infinity for a "
                                   "small finite input and a zero state"),

    # ---- explore's graph of more ops than max_ops (minigrad.viz.explorer.data) ---------------
    "explore.too_many_ops": ("explore: the graph has {count:,} ops, more than max_ops={most:,} (a "
                             "browser needs seconds to lay out a few thousand); explore a smaller "
                             "part (one step, one layer) or raise max_ops"),
}
