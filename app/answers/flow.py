"""The answer flow: analyse -> retrieve -> build context -> generate, as typed events.

Standard mode analyses the question first; quick mode retrieves with it as given. Every stage
reports an action as it finishes, so a client sees what was understood and found while the
answer is still being written."""

from __future__ import annotations

import time
from collections.abc import AsyncGenerator, AsyncIterator
from dataclasses import dataclass, field

from app.answers import analysis as analysing
from app.answers.citations import CitationTracker
from app.answers.context import build_context
from app.answers.extractive import compose
from app.answers.generation import answer_messages
from app.answers.retrieval import GraphContextProvider, RetrievalScope, retrieve
from app.answers.schemas import (
    Action,
    Analysis,
    AnswerMode,
    AnswerOptions,
    AnswerResponse,
    AnswerUsage,
    Citation,
    GeneratorChoice,
    Source,
)
from app.chunks.embedding import EmbedderFactory
from app.db.engine import Database
from app.llm import ChatClient, LLMError, TokenUsage
from app.llm.errors import LLMNotConfigured, LLMUnavailable
from app.search.rerank import Reranker

NO_ANSWER = "The knowledge base does not contain an answer to this question."


@dataclass(frozen=True, slots=True)
class ActionEvent:
    action: Action


@dataclass(frozen=True, slots=True)
class SourcesEvent:
    sources: list[Source]


@dataclass(frozen=True, slots=True)
class DeltaEvent:
    text: str


@dataclass(frozen=True, slots=True)
class CitationEvent:
    citation: Citation


@dataclass(frozen=True, slots=True)
class DoneEvent:
    response: AnswerResponse


AnswerEvent = ActionEvent | SourcesEvent | DeltaEvent | CitationEvent | DoneEvent


@dataclass(frozen=True, slots=True)
class FlowDependencies:
    database: Database
    embedders: EmbedderFactory
    reranker: Reranker | None
    llm: ChatClient | None
    graph: GraphContextProvider | None = None


@dataclass(slots=True)
class _Run:
    started: float = field(default_factory=time.monotonic)
    usage: TokenUsage = field(default_factory=TokenUsage)
    llm_calls: int = 0
    warnings: list[str] = field(default_factory=list)
    actions: list[Action] = field(default_factory=list)
    answer: list[str] = field(default_factory=list)

    def action(self, stage: str, message: str, **data: object) -> ActionEvent:
        action = Action.model_validate(
            {
                "stage": stage,
                "message": message,
                "data": data,
                "elapsed_ms": round((time.monotonic() - self.started) * 1000, 1),
            }
        )
        self.actions.append(action)
        return ActionEvent(action)


def llm_required(options: AnswerOptions, llm: ChatClient | None) -> None:
    """An explicit `generator: llm` without one configured is a 422 before anything runs."""
    if options.generator is GeneratorChoice.LLM and llm is None:
        raise LLMNotConfigured(
            "No LLM is configured on this server (ARBOR_LLM_BASE_URL); ask with "
            "`generator: extractive` or `auto`."
        )


async def _analyse(options: AnswerOptions, deps: FlowDependencies, run: _Run) -> Analysis:
    use_llm = deps.llm is not None and options.generator is not GeneratorChoice.EXTRACTIVE
    messages = options.messages
    if messages is None:
        assert options.query is not None
        question = options.query.strip()
    else:
        question = analysing.last_user_turn(messages)
    if options.mode is AnswerMode.QUICK:
        return analysing.skipped_analysis(question)
    if not use_llm or deps.llm is None:
        return analysing.lexical_analysis(question)
    try:
        if messages is not None:
            run.llm_calls += 1
            question = await analysing.standalone_question(deps.llm, messages, run.usage)
        run.llm_calls += 1
        found = await analysing.analyse(deps.llm, question, run.usage)
    except LLMError as exc:
        run.warnings.append(f"Query analysis fell back to lexical: the LLM failed ({exc}).")
        return analysing.lexical_analysis(question)
    if found is None:
        run.warnings.append("Query analysis fell back to lexical: the LLM's output did not parse.")
        return analysing.lexical_analysis(question)
    return found


async def run_flow(
    options: AnswerOptions, scope: RetrievalScope, deps: FlowDependencies
) -> AsyncGenerator[AnswerEvent, None]:
    """Run every stage, yielding events in the documented order; the last is DoneEvent.

    Errors a client should see (LLMUnavailable, a search ValidationFailed) are raised."""
    llm_required(options, deps.llm)
    run = _Run()

    analysis = await _analyse(options, deps, run)
    yield run.action(
        "analysis",
        f"Intent {analysis.intent.value}; entities: {', '.join(analysis.entities) or 'none'}",
        question=analysis.question,
        entities=analysis.entities,
        intent=analysis.intent.value,
        source=analysis.source,
    )

    retrieved = await retrieve(
        deps.database,
        scope,
        options,
        question=analysis.question,
        entities=analysis.entities,
        quick=options.mode is AnswerMode.QUICK,
        embedders=deps.embedders,
        reranker=deps.reranker,
        graph=deps.graph,
    )
    if retrieved.degraded:
        run.warnings.append(f"Search ran in {retrieved.search_mode} mode: {retrieved.degraded}.")
    counts = retrieved.counts
    yield run.action(
        "retrieval",
        f"{counts['relevant']} relevant of {counts['hits']} passages "
        f"({counts['vector']} vector, {counts['text']} full-text, "
        f"{counts['trigram']} trigram candidates)",
        mode=retrieved.search_mode,
        counts=counts,
    )

    built = build_context(
        retrieved.relevant, max_tokens=options.max_context_tokens, graph=retrieved.graph
    )
    yield run.action(
        "context",
        f"{len(built.sources)} sources, about {built.tokens} tokens",
        sources=len(built.sources),
        tokens=built.tokens,
        graph_items=built.graph_items,
        duplicates_dropped=built.duplicates,
        chunks_merged=built.merged,
        trimmed=built.trimmed,
        left_out=built.left_out,
    )
    yield SourcesEvent(built.sources)

    tracker = CitationTracker(built.sources)
    generator, model = "none", None
    use_llm = deps.llm is not None and options.generator is not GeneratorChoice.EXTRACTIVE
    if not built.sources and not (use_llm and built.graph_items):
        # Nothing above the relevance floor: say so without spending an LLM call.
        run.answer.append(NO_ANSWER)
        yield DeltaEvent(NO_ANSWER)
    else:
        fall_back = not use_llm
        if use_llm and deps.llm is not None:
            generator, model = "llm", deps.llm.model
            messages = answer_messages(
                analysis.question,
                built.prompt,
                intent=analysis.intent,
                history=options.messages or (),
            )
            stream = deps.llm.stream(messages)
            run.llm_calls += 1
            try:
                async for delta in stream:
                    async for event in _cited(tracker, delta, run):
                        yield event
            except LLMError as exc:
                if options.generator is GeneratorChoice.LLM:
                    raise LLMUnavailable(f"The LLM failed: {exc}") from None
                if run.answer:
                    run.warnings.append(f"The LLM stopped mid-answer ({exc}); it is incomplete.")
                else:
                    run.warnings.append(f"The LLM failed ({exc}); answered extractively instead.")
                    fall_back = True
            finally:
                await stream.aclose()
            run.usage.add(stream.usage)
            if not fall_back and not run.answer and options.generator is GeneratorChoice.AUTO:
                # A model that says nothing (a filter, a bad template) is no answer at all.
                run.warnings.append("The LLM returned no text; answered extractively instead.")
                fall_back = True
        if fall_back and not built.sources:
            # Graph facts alone, and the LLM failed: the extractive generator quotes sources.
            generator, model = "none", None
            run.answer.append(NO_ANSWER)
            yield DeltaEvent(NO_ANSWER)
        elif fall_back:
            generator, model = "extractive", None
            pieces = compose(
                analysis.question,
                built.sources,
                entities=analysis.entities,
                intent=analysis.intent,
            )
            for i, piece in enumerate(pieces):
                async for event in _cited(tracker, piece if i == 0 else " " + piece, run):
                    yield event
        rest, citations = tracker.finish()
        if rest:
            run.answer.append(rest)
            yield DeltaEvent(rest)
        for citation in citations:
            yield CitationEvent(citation)
    run.warnings.extend(tracker.warnings())
    answer = "".join(run.answer)
    yield run.action(
        "generation",
        f"{generator}: {len(answer)} characters, {len(tracker.cited)} sources cited",
        generator=generator,
        model=model,
        characters=len(answer),
        citations=len(tracker.cited),
    )
    yield DoneEvent(
        AnswerResponse(
            answer=answer,
            citations=tracker.cited,
            analysis=analysis,
            actions=run.actions,
            sources=built.sources,
            generator=generator,
            model=model,
            usage=AnswerUsage(
                prompt_tokens=run.usage.prompt_tokens,
                completion_tokens=run.usage.completion_tokens,
                context_tokens=built.tokens,
                llm_calls=run.llm_calls,
            ),
            warnings=run.warnings,
        )
    )


async def _cited(tracker: CitationTracker, delta: str, run: _Run) -> AsyncIterator[AnswerEvent]:
    text, citations = tracker.feed(delta)
    if text:
        run.answer.append(text)
        yield DeltaEvent(text)
    for citation in citations:
        yield CitationEvent(citation)
