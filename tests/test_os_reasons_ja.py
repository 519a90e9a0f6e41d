"""Under --lang ja the system's reasons are Japanese too: "No such file or directory", "File name
too long" and the other usual ones (minigrad.files.os_reason), zipfile's "File is not a zip
file" and "Bad CRC-32" of a broken checkpoint (minigrad.npz_reader.zip_reason), and the
drawings' refusals of a DOT file that is not UTF-8, a format Graphviz does not write and an
--out without a suffix. Each was pasted in English into a Japanese line; the English lines stay
as they were, but for the drawings' (which now say what to do) and the grader's refusal of a
path it cannot look at (failed:, as for a missing file, not error:)."""

import errno
import os
import re

import numpy as np
import pytest

from minigrad import checkpoint
from minigrad.files import REASONS, atomic_write, os_reason
from minigrad.grade.exercises import EXERCISES
from minigrad.grade.grader import main as grade_main
from minigrad.language import Catalog, choose
from minigrad.viz.__main__ import main as viz_main
from attention.__main__ import main as attention_main
from seq2seq.commands.cli import main as seq2seq_main

LONG = "a" * 300                        # longer than any file system's name (255 bytes)


def error_line(main, argv, capsys):
    """What `main(argv)` said on stderr, refusing: one line."""
    assert main(argv) == 1
    said = capsys.readouterr().err
    assert said.count("\n") == 1, said
    return said.rstrip("\n")


# ---- the reasons themselves ------------------------------------------------------------------

def test_each_usual_reason_is_the_systems_english_and_has_its_japanese():
    english, japanese = Catalog("minigrad.messages").texts["en"], Catalog(
        "minigrad.messages").texts["ja"]
    for number, key in REASONS.items():
        assert english[key] == os.strerror(number), key
        error = OSError(number, os.strerror(number))
        choose("en")
        assert os_reason(error) == os.strerror(number)
        choose("ja")
        assert os_reason(error) == japanese[key]
    assert os_reason(OSError(errno.ENAMETOOLONG, "x")) == "ファイル名が長すぎます"
    assert os_reason(OSError(errno.EIO, os.strerror(errno.EIO))) == os.strerror(errno.EIO)
    assert os_reason(OSError("a sentence of our own")) == "a sentence of our own"


def test_a_file_that_cannot_be_written_says_why_in_japanese(tmp_path):
    def full(file):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    path = tmp_path / "x.html"
    for lang, expected in (("en", f"cannot write {str(path)!r}: No space left on device"),
                           ("ja", f"{str(path)!r} に書き出せません: デバイスに空き容量が"
                                  "ありません")):
        choose(lang)
        with pytest.raises(OSError) as caught:
            atomic_write(path, full)
        assert str(caught.value) == expected
    assert os.listdir(tmp_path) == []


def test_a_run_folder_under_a_file_says_not_a_directory_in_japanese(tmp_path, monkeypatch,
                                                                    capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.txt").write_text("x\n", encoding="utf-8")
    argv = ["train", "--out", "notes.txt/run", "--epochs", "1"]
    assert error_line(seq2seq_main, ["--lang", "ja", *argv], capsys) == (
        "エラー: --out notes.txt/run: そこにフォルダを作れません (フォルダではありません)")
    assert error_line(seq2seq_main, ["--lang", "en", *argv], capsys) == (
        "error: --out notes.txt/run: cannot make the folder there (Not a directory)")


def test_a_name_too_long_is_said_in_japanese_by_each_command(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    for main, argv, name in (
            (seq2seq_main, ["evaluate", LONG], LONG),
            (seq2seq_main, ["train", "--out", LONG, "--epochs", "1"], LONG),
            (viz_main, ["explore", "lstm-cell", "--out", f"{LONG}.html"], f"{LONG}.html"),
            (attention_main, ["draw", "--out", f"{LONG}.svg"], f"{LONG}.dot")):   # written first
        assert error_line(main, ["--lang", "ja", *argv], capsys) == (
            f"エラー: ファイル名が長すぎます: {name!r} (エラー番号 {errno.ENAMETOOLONG})"), argv
        assert error_line(main, ["--lang", "en", *argv], capsys) == (
            f"error: [Errno {errno.ENAMETOOLONG}] File name too long: {name!r}"), argv


def test_the_grader_refuses_a_name_too_long_as_a_solution_in_japanese(tmp_path, capsys):
    path = tmp_path / f"{LONG}.py"
    for lang, expected in (("ja", f"不合格: {path} を読めません: ファイル名が長すぎます"),
                           ("en", f"failed: cannot read {path}: File name too long")):
        assert grade_main(EXERCISES, "python -m minigrad.grade",
                          ["--lang", lang, "logsumexp", str(path)]) == 1
        assert capsys.readouterr().err == expected + "\n"


def test_a_page_under_a_file_says_the_file_is_not_a_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.txt").write_text("x\n", encoding="utf-8")
    argv = ["explore", "lstm-cell", "--out", "notes.txt/e.html"]
    assert error_line(viz_main, ["--lang", "ja", *argv], capsys) == (
        "エラー: 'notes.txt/e.html' に書き出せません: 'notes.txt' はファイルで、フォルダでは"
        "ありません")
    assert error_line(viz_main, ["--lang", "en", *argv], capsys) == (
        "error: cannot write 'notes.txt/e.html': 'notes.txt' is a file, not a folder")


# ---- a broken checkpoint ---------------------------------------------------------------------

def broken_checkpoints(tmp_path):
    """(a file that is no zip at all, one whose member a0.npy fails its CRC)."""
    good = tmp_path / "good.npz"
    checkpoint.save({"w": np.arange(2000, dtype=np.float32)}, good)
    data = bytearray(good.read_bytes())
    not_zip = tmp_path / "half.npz"
    not_zip.write_bytes(bytes(data[:len(data) // 2]))
    data[600] ^= 0xFF                           # inside a0.npy's values
    bad_crc = tmp_path / "crc.npz"
    bad_crc.write_bytes(bytes(data))
    return str(not_zip), str(bad_crc)


def test_a_broken_checkpoint_says_zipfiles_reason_in_japanese(tmp_path):
    not_zip, bad_crc = broken_checkpoints(tmp_path)
    said = {}
    for lang in ("en", "ja"):
        choose(lang)
        for path in (not_zip, bad_crc):
            with pytest.raises(checkpoint.CheckpointError) as caught:
                checkpoint.load(path)
            said[lang, path] = str(caught.value)
    assert said["en", not_zip] == f"{not_zip!r} is truncated or corrupt: File is not a zip file"
    assert said["en", bad_crc] == (f"{bad_crc!r} is truncated or corrupt: Bad CRC-32 for file "
                                   "'a0.npy'")
    assert said["ja", not_zip] == (f"{not_zip!r} は途中で切れているか壊れています: zip "
                                   "ファイルではありません")
    assert said["ja", bad_crc] == (f"{bad_crc!r} は途中で切れているか壊れています: メンバー "
                                   "'a0.npy' の CRC-32 が合いません")


def test_every_byte_flipped_in_a_checkpoint_is_refused_in_japanese_without_english(tmp_path):
    """A byte flipped anywhere (a member's name, a header, the central directory, an array's
    .npy header): each is refused in one line, the Japanese saying the reason in Japanese (zipfile
    or NumPy's own English at most in parentheses, after it)."""
    good = tmp_path / "good.npz"
    checkpoint.save({"w": np.arange(50, dtype=np.float32)}, good)
    data = good.read_bytes()
    choose("ja")
    reasons = set()
    for offset in range(len(data)):
        broken = bytearray(data)
        broken[offset] ^= 0x5A
        path = tmp_path / "broken.npz"
        path.write_bytes(bytes(broken))
        try:
            checkpoint.load(path)
        except checkpoint.CheckpointError as error:
            reason = str(error).replace(repr(str(path)), "PATH")
            reasons.add(reason)
            said = re.sub(r" \((NumPy|zipfile): .*\)$", "", reason)   # the library's, quoted
            assert not re.search(r"[A-Za-z]+ [A-Za-z]+ [A-Za-z]+", said), (offset, reason)
    assert any("名前が、アーカイブのディレクトリ" in reason for reason in reasons)
    assert any("ヘッダに記録された大きさより前で終わっています" in reason for reason in reasons)
    assert not [reason for reason in reasons if reason.endswith(": ")]     # a reason said


# ---- drawing ---------------------------------------------------------------------------------

def test_a_dot_file_that_is_not_utf8_is_named_in_both_languages(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bin.dot").write_bytes(b"digraph { a }\n\xff\n")
    argv = ["render", "bin.dot", "--out", "b.svg"]
    assert error_line(viz_main, ["--lang", "ja", *argv], capsys) == (
        "エラー: bin.dot: UTF-8 のテキストではありません (ファイルの 15 バイト目が 0xff です)")
    assert error_line(viz_main, ["--lang", "en", *argv], capsys) == (
        "error: bin.dot: not UTF-8 text (byte 0xff at byte 15 of the file)")


def test_a_format_graphviz_does_not_write_is_refused_before_drawing(tmp_path, monkeypatch,
                                                                    capsys):
    """pygraphviz, given one, failed with "'int' object is not subscriptable"."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "g.dot").write_text("digraph { a -> b }\n", encoding="utf-8")
    for engine in ("pygraphviz", "dot"):
        argv = ["render", "g.dot", "--out", "g2.xyz", "--engine", engine]
        assert error_line(viz_main, ["--lang", "ja", *argv], capsys) == (
            "エラー: g2.xyz は描けません: .xyz は Graphviz が書き出す形式ではありません (.svg、"
            ".png、.pdf、.dot など)")
        assert error_line(viz_main, ["--lang", "en", *argv], capsys) == (
            "error: cannot draw g2.xyz: .xyz is not a format Graphviz writes (.svg, .png, .pdf, "
            ".dot, ...)")
    assert sorted(os.listdir(tmp_path)) == ["g.dot"]            # no g2.dot either


def test_an_out_without_a_suffix_names_the_suffixes_to_give(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "g.dot").write_text("digraph { a -> b }\n", encoding="utf-8")
    for main, argv in ((viz_main, ["render", "g.dot", "--out", "pic"]),
                       (viz_main, ["lstm-cell", "--out", "pic"]),
                       (attention_main, ["draw", "--out", "pic"])):
        assert error_line(main, ["--lang", "ja", *argv], capsys) == (
            "エラー: pic は描けません: 拡張子がありません。--out の名前を形式の拡張子 (.svg、"
            ".png、.pdf、.dot) で終えてください"), argv
        assert error_line(main, ["--lang", "en", *argv], capsys) == (
            "error: cannot draw pic: it has no suffix; end --out with the format's: .svg, .png, "
            ".pdf or .dot"), argv
    assert sorted(os.listdir(tmp_path)) == ["g.dot"]
