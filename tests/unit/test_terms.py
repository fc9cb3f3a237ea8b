"""The terms of keyword search: indexed and asked for the same way."""

from governed_memory.memory.terms import index_words, query_trigrams, query_words


def test_english_words_are_stemmed_alike_in_memories_and_questions() -> None:
    indexed = index_words("Caroline: I researched adoption agencies").split()
    asked = query_words("Which adoption agency is Caroline researching?")
    assert set(asked) <= set(indexed)
    assert "which" not in asked  # a function word says how a question is asked, not about what


def test_chinese_is_cut_into_words_and_function_words_are_left_out() -> None:
    terms = index_words("参加了支持小组").split()
    # jieba's words, then the character pairs and single characters of the run
    assert terms == [
        "参加", "了", "支持", "小组",
        "参加", "加了", "了支", "支持", "持小", "小组",
        "参", "加", "了", "支", "持", "小", "组",
    ]  # fmt: skip
    asked = query_words("我的快递什么时候到")
    assert "快递" in asked
    assert "递" in asked  # a paraphrase may share only characters
    assert not {"我", "的", "什么"} & set(asked)


def test_a_question_of_only_function_words_keeps_them() -> None:
    assert query_words("what is it") == ["what", "is", "it"]


def test_trigrams_cover_identifiers_and_chinese_runs() -> None:
    assert query_trigrams("ord-88172") == ["ord", "rd-", "d-8", "-88", "881", "817", "172"]
    assert query_trigrams("海关退运") == ["海关退", "关退运"]
    assert query_trigrams("短信") == []
    assert query_trigrams("Please TEXT me") == ["ple", "lea", "eas", "ase", "tex", "ext"]


def test_width_and_case_do_not_matter() -> None:
    assert index_words("ＯＲＤＥＲ Shipped") == index_words("order shipped")
