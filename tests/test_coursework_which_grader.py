"""An exercise given to the wrong grader is one line naming the command that grades it, from each
grader to the others; an unknown name still lists the grader's own exercises."""

import pytest

from minigrad.grade.grader import GRADERS, main


def exercises_of(prog):
    """The EXERCISES of the grader run by `prog` ("python -m attention.grade")."""
    import importlib
    return importlib.import_module(prog.split()[-1]).EXERCISES


def test_the_table_of_graders_names_each_graders_own_exercises():
    assert {prog: tuple(exercises_of(prog)) for prog in GRADERS} == GRADERS


@pytest.mark.parametrize("prog, other", [(p, o) for p in GRADERS for o in GRADERS if p != o])
def test_another_graders_exercise_names_its_command(prog, other, capsys):
    for name in GRADERS[other]:
        with pytest.raises(SystemExit) as stop:
            main(exercises_of(prog), prog, [name, "my file.py"])
        assert stop.value.code == 2
        assert capsys.readouterr().err == (f"error: {name} is graded by {other} {name} "
                                           "'my file.py'\n")


def test_general_attention_given_to_minigrads_grader(capsys):
    with pytest.raises(SystemExit):
        main(exercises_of("python -m minigrad.grade"), "python -m minigrad.grade",
             ["general_attention", "my_file.py"])
    assert capsys.readouterr().err == ("error: general_attention is graded by python -m "
                                       "attention.grade general_attention my_file.py\n")


def test_an_unknown_exercise_lists_the_graders_own(capsys):
    with pytest.raises(SystemExit) as stop:
        main(exercises_of("python -m attention.grade"), "python -m attention.grade",
             ["gru", "my_file.py"])
    assert stop.value.code == 2
    assert capsys.readouterr().err == (
        "error: argument exercise: invalid choice: 'gru' (choose from general_attention, "
        "multi_head, encoder_block, positional_encoding, causal_attention) (see python -m "
        "attention.grade --help)\n")
