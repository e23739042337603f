from meeple.core.text import possessive, subject, verb


def test_possessive_and_verbs_agree_with_you_and_named_seats() -> None:
    assert possessive("you") == "your"
    assert possessive("You") == "your"
    assert possessive("Ann") == "Ann's"
    assert possessive("greedy (1)") == "greedy (1)'s"
    assert possessive("James") == "James'"
    assert subject("you", "rolls") == "you roll"
    assert subject("Ann", "rolls") == "Ann rolls"
    assert verb("you", "has") == "have"
    assert verb("you", "takes") == "take"
    assert verb("Bo", "takes") == "takes"
    assert verb("you", "reaches") == "reach"
    assert verb("you", "passes") == "pass"
    assert verb("you", "carries") == "carry"
    assert verb("you", "goes") == "go"
    assert verb("you", "rolls") == "roll"
