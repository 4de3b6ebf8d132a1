"""The rules judge fails what cannot be an answer; a refusal of an action goes to a person (issue 32).

Positives and their benign look-alikes: Lorem ipsum as the deliverable / quoted in an article on
typesetting; a bare TODO line / a "TODO list" in prose; a cut-off text / a short complete
answer and a code answer; an English request answered in French / a French request answered in
French; a refusal of a GENERATE task (FAIL) / of an ACTION task (a person decides).
"""

from __future__ import annotations

import pytest

from qgs_worker.core import instruction_model, nonanswers
from qgs_worker.core.gate import decide_gate
from qgs_worker.core.models import (
    REFUSAL,
    CadencePolicy,
    Complexity,
    DecisionKind,
    Deliverable,
    Finding,
    GatePolicy,
    ReviewRequest,
    Severity,
    TaskHistory,
    TaskType,
    Verdict,
)
from qgs_worker.core.rubric import dimensions_for
from qgs_worker.judges.rules_judge import RulesJudge
from qgs_worker.judges.topic import LEXICAL, TopicMeasure
from qgs_worker.service.policies import Policies
from qgs_worker.service.preparing import prepare_round
from qgs_worker.service.records import TaskContext, TaskRecord
from tests.unit.test_rules_judge import GOOD_ARTICLE

AI = "Write an article about AI"

AI_ARTICLE = """\
# Artificial intelligence at work

Artificial intelligence (AI) systems learn patterns from data and use them to make predictions.
Teams use AI to sort support tickets, to flag fraud and to draft routine text, and they keep a
person in the loop where a wrong answer is costly.

## What AI does well

AI is good at narrow, repetitive tasks with plenty of examples. It is weaker where the data is
scarce or where the world changes faster than the model is retrained.

## Where to start

Pick one task with clear success measures, collect examples, and compare the AI system with the
current process before you rely on it.
"""

TYPESETTING = """\
# Why designers use placeholder text

Typesetters have filled page mock-ups with the passage that starts "Lorem ipsum dolor sit amet,
consectetur adipiscing elit" since the 1500s. The text is scrambled Latin from Cicero, so readers
look at the layout instead of reading the words.

## When to replace it

Replace the filler before a design is reviewed by customers: a page of real copy shows where
headings wrap and where paragraphs run long. Many teams keep a style guide with sample copy for
this reason, so that every page is reviewed with text of realistic length.
"""


def review(deliverable: str, request: str = AI, task_type: TaskType = TaskType.GENERATE,
           judge: RulesJudge | None = None):  # fmt: skip
    return (judge or RulesJudge()).review(
        ReviewRequest(
            task_type=task_type,
            request=request,
            deliverable=deliverable,
            dimensions=dimensions_for(task_type),
        )
    )


def not_an_answer(got) -> bool:
    return any("not an answer" in issue for d in got.dimensions for issue in d.issues)


class TestWhatMustHold:
    """The issue's two cases are not passed."""

    @pytest.mark.parametrize(
        "deliverable", ["lorem ipsum dolor sit amet", "I cannot help with that."]
    )
    def test_fail(self, deliverable: str) -> None:
        got = review(deliverable)
        assert Verdict.FAIL == got.verdict
        assert not_an_answer(got)
        assert got.summary.startswith("rules judge:")

    def test_a_real_article_passes(self) -> None:
        got = review(AI_ARTICLE)
        assert Verdict.FAIL != got.verdict
        assert not not_an_answer(got)


class TestPlaceholders:
    """Filler where content should be; not a mention of it."""

    @pytest.mark.parametrize(
        "deliverable",
        [
            AI_ARTICLE + "\n## Outlook\n\nTODO\n",
            AI_ARTICLE + "\n## Outlook\n\n- TBD: write the outlook\n",
            AI_ARTICLE + "\n[Insert conclusion here]\n",
            "As an AI language model, I don't have opinions, but AI is a broad field.\n\n"
            + AI_ARTICLE,
            AI_ARTICLE
            + "\nLorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod "
            "tempor incididunt ut labore et dolore magna aliqua.\n",
        ],
        ids=["todo-line", "tbd-note", "insert-here", "as-an-ai", "lorem-paragraph"],
    )
    def test_fail(self, deliverable: str) -> None:
        assert Verdict.FAIL == review(deliverable).verdict

    def test_article_quoting_lorem_ipsum(self) -> None:
        got = review(TYPESETTING, "Write an article about placeholder text in page design")
        assert not not_an_answer(got)

    def test_todo_list_in_prose(self) -> None:
        text = GOOD_ARTICLE + "\nKeep a TODO list of the functions still without tests.\n"
        assert not not_an_answer(review(text, "Write an article about unit testing in Python"))

    def test_asked_for_a_template(self) -> None:
        assert "" == nonanswers.placeholder("Dear hiring manager,\n[Insert company name here]\n",
                                            "Write a cover letter template")  # fmt: skip

    def test_your_name_field_is_not_a_placeholder(self) -> None:
        assert "" == nonanswers.placeholder("Best regards,\n[Your Name]", "Write a cover letter")


class TestCutOff:
    """A text that stops mid-way; not a short complete answer or code."""

    @pytest.mark.parametrize(
        "deliverable",
        [
            AI_ARTICLE + "\nThe next step for most teams is to measure the",
            AI_ARTICLE + "\nHere is an example:\n\n```python\ndef predict(x):\n    return",
            AI_ARTICLE + "\nThree things matter most for adoption, namely,",
        ],
        ids=["on-the", "open-fence", "on-comma"],
    )
    def test_fail(self, deliverable: str) -> None:
        got = review(deliverable)
        assert Verdict.FAIL == got.verdict
        assert any("stops" in i for d in got.dimensions for i in d.issues)

    @pytest.mark.parametrize(
        ("request_", "deliverable"),
        [
            ("What is the default port of PostgreSQL?", "PostgreSQL listens on port 5432 by default."),
            ("What is the capital of Australia?", "Canberra"),
            ("Write a Python function that adds two numbers",
             "```python\ndef add(a: int, b: int) -> int:\n    return a + b\n```"),
            ("Restart nginx on web-1", "format C: /y"),
        ],
        ids=["short-complete", "one-word", "code", "command"],
    )  # fmt: skip
    def test_complete(self, request_: str, deliverable: str) -> None:
        for task_type in (TaskType.QUERY, TaskType.GENERATE):
            assert not any(
                "stops" in i
                for d in review(deliverable, request_, task_type).dimensions
                for i in d.issues
            )


class TestLanguage:
    """Another language than asked fails; the same one, or one the request names, does not."""

    FRENCH = (
        "L'intelligence artificielle apprend des modèles à partir des données et les utilise pour "
        "faire des prédictions. Les équipes s'en servent pour trier les demandes des clients et "
        "pour repérer la fraude, en gardant une personne dans la boucle."
    )

    def test_english_request_french_answer(self) -> None:
        got = review(self.FRENCH, "Explain what artificial intelligence does", TaskType.QUERY)
        assert Verdict.FAIL == got.verdict
        assert any("another language" in i for d in got.dimensions for i in d.issues)

    def test_french_request_french_answer(self) -> None:
        got = review(
            self.FRENCH, "Explique ce que fait l'intelligence artificielle", TaskType.QUERY
        )
        assert not not_an_answer(got)

    def test_request_names_the_language(self) -> None:
        got = review(self.FRENCH, "Explain artificial intelligence in French", TaskType.QUERY)
        assert not not_an_answer(got)

    def test_the_identifier_is_a_seam(self) -> None:
        english = RulesJudge(identify=lambda text: ("en", 1.0))
        got = review(self.FRENCH, "Explain what artificial intelligence does", TaskType.QUERY,
                     judge=english)  # fmt: skip
        assert not not_an_answer(got)


class TestTopic:
    """Prose about something else fails; the measure is a seam."""

    COOKING = (
        "Slice the onions thinly and let them soften in butter over a low flame for twenty "
        "minutes, stirring now and then. Add the stock, season with salt and pepper, and simmer "
        "until the soup thickens; serve it with toasted bread and grated cheese."
    )

    def test_off_topic_fails_by_a_decisive_measure(self) -> None:
        encoder = TopicMeasure("test encoder", lambda asked, text: 0.1, threshold=0.5)
        request = "Write an article about artificial intelligence in offices and teams"
        got = review(self.COOKING, request, judge=RulesJudge(topic=encoder))
        assert Verdict.FAIL == got.verdict
        assert any("is about something else" in i for d in got.dimensions for i in d.issues)

    def test_a_decisive_measure_reads_no_request_of_under_4_content_words(self) -> None:
        # "Write an article about AI", "tl;dr please": what they refer to may not be in them.
        encoder = TopicMeasure("test encoder", lambda asked, text: 0.1, threshold=0.5)
        for request in (AI, "tl;dr please"):
            assert not not_an_answer(review(self.COOKING, request, judge=RulesJudge(topic=encoder)))
        pasted = f"Summarise this article:\n\n{AI_ARTICLE}"  # the pasted text counts
        assert not_an_answer(review(self.COOKING, pasted, judge=RulesJudge(topic=encoder)))

    def test_the_lexical_measure_alone_never_fails(self) -> None:
        # A hint costs points on relevance; the round is not failed on shared letters alone.
        never = TopicMeasure("letters", lambda asked, text: 0.0, threshold=0.05, decisive=False)
        request = "Write an article about artificial intelligence in offices and teams"
        got = review(AI_ARTICLE, request, judge=RulesJudge(topic=never))
        assert Verdict.FAIL != got.verdict
        assert not not_an_answer(got)
        assert any("may be about something else" in i for d in got.dimensions for i in d.issues)
        assert not LEXICAL.decisive

    @pytest.mark.parametrize(
        ("request_", "answer"),
        [
            ("What does 'Schadenfreude' mean?",
             "It's a German word for the pleasure someone feels at another person's misfortune, "
             "like a little smile when a rival's car gets a parking ticket on a busy morning."),
            ("tl;dr please",
             "The meeting agreed to move the launch to March, hire two more support staff, and "
             "revisit the pricing page after the customer interviews are done next week."),
            ("Can you put this into German for my landlord: The heating in my flat has not "
             "worked since Monday and the radiators are cold in every room.",
             "Die Heizung in meiner Wohnung funktioniert seit Montag nicht mehr, und die "
             "Heizkörper sind in allen Zimmern kalt. Könnten Sie bitte so bald wie möglich einen "
             "Techniker schicken?"),
            ("Write a short scene where a robot refuses an order.",
             "The captain pointed at the airlock. \"Open it.\"\n\nUnit 7 did not move. \"I won't "
             "do that, Captain. There are two crew members in the bay.\"\n\nThe captain's hand "
             "trembled over the override. Outside, the storm hammered the hull, and for a long "
             "moment neither of them spoke."),
        ],
    )  # fmt: skip
    def test_short_requests_and_translations_are_not_failed(
        self, request_: str, answer: str
    ) -> None:
        # (The relevance check may still find a short QUERY's words missing: not this check's.)
        got = review(answer, request_, TaskType.GENERATE)
        assert not not_an_answer(got)
        assert Verdict.FAIL != got.verdict  # the scene shares few letters: a hint, not a FAIL

    def test_on_topic_passes(self) -> None:
        assert LEXICAL.similarity("Write an article about AI", AI_ARTICLE) == 1.0
        assert not not_an_answer(review(AI_ARTICLE))

    def test_without_an_encoder_the_letters_only_hint(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """No encoder registered (the default install): the judge is as before issue 32 item 2."""
        monkeypatch.setattr(instruction_model, "registered_encoder", lambda: None)
        request = "Write an article about artificial intelligence in offices and teams"
        got = review(self.COOKING, request)
        assert Verdict.FAIL != got.verdict
        assert not not_an_answer(got)
        assert any(
            "may be about something else: character trigrams" in i
            for d in got.dimensions
            for i in d.issues
        )

    def test_another_measure(self) -> None:
        always_close = TopicMeasure("test encoder", lambda asked, text: 0.9, threshold=0.5)
        judge = RulesJudge(topic=always_close)
        got = review(self.COOKING, judge=judge)
        assert not not_an_answer(got)


class TestRefusals:
    """Refusals in several languages; not an answer that only sounds like one."""

    @pytest.mark.parametrize(
        "text",
        [
            "I cannot help with that.",
            "I'm sorry, but I can't help with that request.",
            "I’m unable to assist with this.",
            "I must decline to write this.",
            "Désolé, je ne peux pas vous aider avec cette demande.",
            "Es tut mir leid, aber ich kann Ihnen dabei nicht helfen.",
            "Lo siento, pero no puedo ayudar con eso.",
            "Mi dispiace, ma non posso aiutarti con questo.",
            "Desculpe, mas não posso ajudar com isso.",
            "抱歉，我无法帮助你完成这个请求。",
            "申し訳ありませんが、そのご依頼にはお手伝いできません。",
            "Извините, но я не могу помочь с этим.",
        ],
    )
    def test_refusal(self, text: str) -> None:
        assert nonanswers.refusal(text)

    @pytest.mark.parametrize(
        "text",
        [
            "I can't help but notice how fast AI is moving. " + AI_ARTICLE,
            AI_ARTICLE + "\nOne user told us: I cannot help with that, and we laughed.",
            "The service restarted; I cannot see any errors in the log.",
        ],
        ids=["cant-help-but", "quoted-late-in-a-long-text", "cannot-see"],
    )
    def test_not_a_refusal(self, text: str) -> None:
        assert "" == nonanswers.refusal(text)

    def test_generate_refusal_fails(self) -> None:
        assert Verdict.FAIL == review("I'm sorry, but I can't write that article.").verdict

    def test_action_refusal_costs_no_points(self) -> None:
        got = review("I can't drop the orders table without a backup.", "Drop the orders table",
                     TaskType.ACTION)  # fmt: skip
        assert not not_an_answer(got)
        assert any("a person decides" in i for d in got.dimensions for i in d.issues)


def refusal_finding() -> Finding:
    return Finding(role="detectors", category=REFUSAL, severity=Severity.P4, title="declines")


def decide(task_type: TaskType, complexity: Complexity, verdict: Verdict | None = Verdict.FAIL):
    from qgs_worker.core.models import Review

    rev = None if verdict is None else Review(verdict=verdict, score=30)
    return decide_gate(
        rev,
        round_number=1,
        complexity=complexity,
        final=True,
        history=TaskHistory(scores=[]),
        findings=[refusal_finding()],
        policy=GatePolicy(),
        task_type=task_type,
    )


class TestGate:
    """A refusal of an ACTION or CRITICAL task waits for a person; of a QUERY it is revised."""

    @pytest.mark.parametrize(
        ("task_type", "complexity"),
        [(TaskType.ACTION, Complexity.COMPLEX), (TaskType.CRITICAL, Complexity.REFLECT)],
    )
    def test_action_goes_to_a_person(self, task_type: TaskType, complexity: Complexity) -> None:
        got = decide(task_type, complexity)
        assert DecisionKind.AWAITING_APPROVAL == got.kind
        assert "a person decides" in got.reason

    def test_p0_still_blocks(self) -> None:
        p0 = Finding(role="detectors", category="x", severity=Severity.P0, title="rm -rf /")
        got = decide_gate(
            None, round_number=1, complexity=Complexity.COMPLEX, final=True,
            history=TaskHistory(scores=[]), findings=[refusal_finding(), p0],
            policy=GatePolicy(), task_type=TaskType.ACTION,
        )  # fmt: skip
        assert DecisionKind.BLOCK == got.kind

    def test_simple_query_is_not_passed_unreviewed(self) -> None:
        assert DecisionKind.REVISE == decide(TaskType.QUERY, Complexity.SIMPLE, None).kind

    def test_generate_follows_the_critic(self) -> None:
        assert DecisionKind.FORCE_DELIVER == decide(TaskType.GENERATE, Complexity.COMPLEX).kind


class TestThroughTheIntake:
    """The intake's detector pass finds the refusal, the gate sends the ACTION round to a person."""

    def test_refusal_of_an_action(self) -> None:
        task = TaskRecord(id="t", request="Drop the orders table in production",
                          task_type=TaskType.ACTION, complexity=Complexity.COMPLEX)  # fmt: skip
        deliverable = Deliverable(text="I'm sorry, but I can't drop a production table.")
        prepared = prepare_round(
            TaskContext(task=task, rounds=()), 1, deliverable, final=True, turn=None,
            policies=Policies(gate=GatePolicy(), cadence=CadencePolicy()),
        )  # fmt: skip
        assert [REFUSAL] == [f.category for f in prepared.findings]
        rev = RulesJudge().review(
            ReviewRequest(task_type=TaskType.ACTION, request=task.request,
                          deliverable=deliverable.render(),
                          dimensions=dimensions_for(TaskType.ACTION))
        )  # fmt: skip
        got = decide_gate(
            rev, round_number=1, complexity=task.complexity, final=True,
            history=TaskHistory(scores=[]), findings=prepared.findings, policy=GatePolicy(),
            task_type=task.task_type,
        )  # fmt: skip
        assert DecisionKind.AWAITING_APPROVAL == got.kind

    def test_no_finding_when_the_round_acts(self) -> None:
        task = TaskRecord(id="t", request="Restart nginx", task_type=TaskType.ACTION,
                          complexity=Complexity.COMPLEX)  # fmt: skip
        from qgs_worker.core.models import ToolCall

        deliverable = Deliverable(
            text="I can't restart it gracefully, so I restart it hard.",
            tool_calls=(ToolCall(name="restart", arguments={"service": "nginx"}),),
        )
        prepared = prepare_round(
            TaskContext(task=task, rounds=()), 1, deliverable, final=True, turn=None,
            policies=Policies(gate=GatePolicy(), cadence=CadencePolicy()),
        )  # fmt: skip
        assert REFUSAL not in [f.category for f in prepared.findings]


FR_ARTICLE = (
    "La Banque centrale européenne a maintenu jeudi ses taux directeurs inchangés, estimant que "
    "l'inflation reculait plus vite que prévu dans la zone euro. Sa présidente a toutefois "
    "prévenu que des baisses ne seraient pas envisagées avant l'été."
)


class TestReviewerCases:
    """The review of issue 32's checks: each defect it found, fixed."""

    def test_language_of_the_instruction_not_the_pasted_text(self) -> None:
        answer = ("The ECB left its key interest rates unchanged on Thursday because inflation is "
                  "falling faster than expected, but cuts are unlikely before the summer.")  # fmt: skip
        got = review(answer, "Summarise this article:\n\n" + FR_ARTICLE, TaskType.QUERY)
        assert not not_an_answer(got)

    @pytest.mark.parametrize(
        ("request_", "answer"),
        [
            ("Give me five common French greetings.",
             "Bonjour, bonsoir, salut, coucou et enchanté sont des salutations courantes; "
             "bonjour est la plus polie."),
            ("How do you conjugate 'hablar' in the present tense?",
             "Hablar es un verbo regular: yo hablo, tú hablas, él habla, nosotros hablamos, "
             "vosotros habláis, ellos hablan."),
        ],
    )  # fmt: skip
    def test_a_language_named_anywhere_or_a_quoted_word(self, request_: str, answer: str) -> None:
        assert not not_an_answer(review(answer, request_, TaskType.QUERY))

    @pytest.mark.parametrize(
        "text",
        [
            "403 Forbidden means the server refuses to authorise it: it is saying 'I won't do "
            "that for you' regardless of who you are.",
            'Here is the handler:\n\n```python\nprint("I cannot do that")\n```',
            "The bot replies `I cannot do that` when the key is missing.",
            "He said “I won't do that.” and left.",
        ],
    )
    def test_quotes_and_code_are_not_refusals(self, text: str) -> None:
        assert "" == nonanswers.refusal(text)

    def test_quoted_refusal_of_an_action_has_no_finding(self) -> None:
        task = TaskRecord(id="t", request="Explain the bot's reply", task_type=TaskType.ACTION,
                          complexity=Complexity.COMPLEX)  # fmt: skip
        deliverable = Deliverable(text="```\nI cannot do that\n```\nIt prints that on a bad key.")
        prepared = prepare_round(
            TaskContext(task=task, rounds=()), 1, deliverable, final=True, turn=None,
            policies=Policies(gate=GatePolicy(), cadence=CadencePolicy()),
        )  # fmt: skip
        assert REFUSAL not in [f.category for f in prepared.findings]

    @pytest.mark.parametrize(
        "text",
        [
            "I can't write your whole thesis, but here is an outline:\n1. Introduction\n"
            "2. Literature review\n3. Method",
            "I won't delete the audit logs (legal hold), but I removed the 412 others.",
            "I can't share the admin password; instead, reset it with manage.py changepassword.",
        ],
    )
    def test_a_partial_refusal_that_does_the_rest(self, text: str) -> None:
        assert "" == nonanswers.refusal(text)

    @pytest.mark.parametrize(
        "text",
        [
            "I'm sorry, but I can't help with that, but I'd be happy to help with something else.",
            "I can't do that. However, is there anything else I can help you with?",
        ],
    )
    def test_a_refusal_that_only_offers_other_help(self, text: str) -> None:
        assert nonanswers.refusal(text)

    @pytest.mark.parametrize(
        "text",
        [
            "Sorry, ik kan je daar niet mee helpen.",
            "I'm not comfortable doing that.",
            "Unfortunately, that's not something I'm able to do.",
            "That's not something I can help with.",
            "I'm not able to open attachments, so I can't summarise the contract.",
            "I am not willing to write that.",
        ],
    )
    def test_missed_refusals(self, text: str) -> None:
        assert nonanswers.refusal(text)

    def test_cut_off_on_so_that(self) -> None:
        text = "Every request and response is encrypted and authenticated, so that"
        assert "so that" in nonanswers.cut_off(text, unclosed_fence=False)
        assert "" == nonanswers.cut_off("I told them so.", unclosed_fence=False)

    def test_boilerplate_needs_the_first_person(self) -> None:
        assert "" == nonanswers.placeholder(
            "Anthropic makes Claude. As an AI assistant, Claude is designed to be helpful."
        )
        assert nonanswers.placeholder("As an AI, I don't have the ability to predict the future.")

    @pytest.mark.parametrize(
        ("task_type", "article"),
        [(TaskType.ACTION, "an ACTION"), (TaskType.CRITICAL, "a CRITICAL")],
    )
    def test_the_reason_names_the_type(self, task_type: TaskType, article: str) -> None:
        got = decide_gate(
            None, round_number=1, complexity=Complexity.COMPLEX, final=True,
            history=TaskHistory(scores=[]), findings=[refusal_finding()],
            policy=GatePolicy(), task_type=task_type,
        )  # fmt: skip
        assert f"on {article} task" in got.reason
        rev = review("I cannot help with that.", "Drop the orders table", task_type)
        assert any(f"declining {article} task" in i for d in rev.dimensions for i in d.issues)
