"""Contains all the data models used in inputs/outputs"""

from .action import Action
from .action_data import ActionData
from .action_stage import ActionStage
from .analysis import Analysis
from .analysis_source import AnalysisSource
from .ancestor_read import AncestorRead
from .answer_mode import AnswerMode
from .answer_request import AnswerRequest
from .answer_request_filter_type_0 import AnswerRequestFilterType0
from .answer_response import AnswerResponse
from .answer_response_generator import AnswerResponseGenerator
from .answer_usage import AnswerUsage
from .api_key_create import ApiKeyCreate
from .api_key_created import ApiKeyCreated
from .api_key_created_status import ApiKeyCreatedStatus
from .api_key_read import ApiKeyRead
from .api_key_read_status import ApiKeyReadStatus
from .audit_event_read import AuditEventRead
from .audit_event_read_details_type_0 import AuditEventReadDetailsType0
from .audit_event_read_target import AuditEventReadTarget
from .candidate_counts import CandidateCounts
from .chat_turn import ChatTurn
from .chat_turn_role import ChatTurnRole
from .check import Check
from .chunk_bulk_item import ChunkBulkItem
from .chunk_bulk_item_metadata import ChunkBulkItemMetadata
from .chunk_bulk_result import ChunkBulkResult
from .chunk_bulk_upsert import ChunkBulkUpsert
from .chunk_context import ChunkContext
from .chunk_context_request import ChunkContextRequest
from .chunk_contexts import ChunkContexts
from .chunk_count import ChunkCount
from .chunk_delete_result import ChunkDeleteResult
from .chunk_read import ChunkRead
from .chunk_read_metadata import ChunkReadMetadata
from .chunk_span import ChunkSpan
from .chunk_upsert import ChunkUpsert
from .chunk_upsert_metadata import ChunkUpsertMetadata
from .citation import Citation
from .common_lexeme import CommonLexeme
from .configuration_result import ConfigurationResult
from .configuration_result_options import ConfigurationResultOptions
from .context_node import ContextNode
from .crawl import Crawl
from .day_count import DayCount
from .dify_condition import DifyCondition
from .dify_condition_comparison_operator import DifyConditionComparisonOperator
from .dify_error import DifyError
from .dify_metadata_condition import DifyMetadataCondition
from .dify_metadata_condition_logical_operator import DifyMetadataConditionLogicalOperator
from .dify_record import DifyRecord
from .dify_record_metadata import DifyRecordMetadata
from .dify_retrieval_request import DifyRetrievalRequest
from .dify_retrieval_response import DifyRetrievalResponse
from .dify_retrieval_setting import DifyRetrievalSetting
from .document_access import DocumentAccess
from .document_batch_create import DocumentBatchCreate
from .document_batch_item import DocumentBatchItem
from .document_batch_read import DocumentBatchRead
from .document_create import DocumentCreate
from .document_create_chunking_type_0 import DocumentCreateChunkingType0
from .document_create_format_type_0 import DocumentCreateFormatType0
from .document_create_metadata import DocumentCreateMetadata
from .document_delete_by_filter import DocumentDeleteByFilter
from .document_delete_by_filter_filter import DocumentDeleteByFilterFilter
from .document_delete_result import DocumentDeleteResult
from .document_from_url import DocumentFromUrl
from .document_from_url_chunking_type_0 import DocumentFromUrlChunkingType0
from .document_from_url_metadata import DocumentFromUrlMetadata
from .document_imported import DocumentImported
from .document_node import DocumentNode
from .document_read import DocumentRead
from .document_read_metadata import DocumentReadMetadata
from .document_read_status import DocumentReadStatus
from .document_transfer import DocumentTransfer
from .document_transfer_metadata import DocumentTransferMetadata
from .document_update import DocumentUpdate
from .document_update_metadata import DocumentUpdateMetadata
from .documents_create_files_body import DocumentsCreateFilesBody
from .documents_list_status_type_0 import DocumentsListStatusType0
from .embed_pending_result import EmbedPendingResult
from .embedding_config import EmbeddingConfig
from .embedding_config_provider import EmbeddingConfigProvider
from .embedding_config_read import EmbeddingConfigRead
from .embedding_config_variant_type_0 import EmbeddingConfigVariantType0
from .embedding_create import EmbeddingCreate
from .embedding_create_input import EmbeddingCreateInput
from .embedding_read import EmbeddingRead
from .enrichment_result import EnrichmentResult
from .enrichment_settings import EnrichmentSettings
from .enrichment_write import EnrichmentWrite
from .entity import Entity
from .entity_detail import EntityDetail
from .entity_read import EntityRead
from .evaluation_configuration import EvaluationConfiguration
from .evaluation_configuration_filter_type_0 import EvaluationConfigurationFilterType0
from .evaluation_create import EvaluationCreate
from .evaluation_query import EvaluationQuery
from .evaluation_read import EvaluationRead
from .evaluation_results import EvaluationResults
from .evaluation_summary import EvaluationSummary
from .evaluation_summary_measures import EvaluationSummaryMeasures
from .evaluations_create_files_body import EvaluationsCreateFilesBody
from .event_page import EventPage
from .event_read import EventRead
from .event_read_data import EventReadData
from .event_read_type import EventReadType
from .events_follow_type_type_0_item import EventsFollowTypeType0Item
from .field_error import FieldError
from .function_definition import FunctionDefinition
from .function_definition_parameters import FunctionDefinitionParameters
from .fusion import Fusion
from .generator_choice import GeneratorChoice
from .graph_edge import GraphEdge
from .graph_node import GraphNode
from .graph_search_request import GraphSearchRequest
from .graph_search_request_mode import GraphSearchRequestMode
from .graph_search_result import GraphSearchResult
from .graph_search_result_actions_item import GraphSearchResultActionsItem
from .graph_search_result_mode import GraphSearchResultMode
from .graph_settings import GraphSettings
from .graph_settings_extractor import GraphSettingsExtractor
from .graph_status import GraphStatus
from .graph_status_jobs import GraphStatusJobs
from .hit_context import HitContext
from .hit_explain import HitExplain
from .hnsw_config import HnswConfig
from .include import Include
from .intent import Intent
from .item_error import ItemError
from .job_read import JobRead
from .job_read_status import JobReadStatus
from .judgment import Judgment
from .knowledge_base_copied import KnowledgeBaseCopied
from .knowledge_base_copy import KnowledgeBaseCopy
from .knowledge_base_copy_chunking import KnowledgeBaseCopyChunking
from .knowledge_base_create import KnowledgeBaseCreate
from .knowledge_base_create_chunking import KnowledgeBaseCreateChunking
from .knowledge_base_read import KnowledgeBaseRead
from .knowledge_base_read_chunking import KnowledgeBaseReadChunking
from .knowledge_base_read_search_modes_item import KnowledgeBaseReadSearchModesItem
from .knowledge_base_update import KnowledgeBaseUpdate
from .knowledge_base_update_chunking_type_0 import KnowledgeBaseUpdateChunkingType0
from .latency_percentiles import LatencyPercentiles
from .liveness import Liveness
from .measures import Measures
from .mention import Mention
from .mmr_options import MmrOptions
from .multi_answer_request import MultiAnswerRequest
from .multi_answer_request_filter_type_0 import MultiAnswerRequestFilterType0
from .multi_search_request import MultiSearchRequest
from .multi_search_request_filter_type_0 import MultiSearchRequestFilterType0
from .neighbour_chunk import NeighbourChunk
from .node_enrichment import NodeEnrichment
from .node_enrichment_write import NodeEnrichmentWrite
from .node_kind import NodeKind
from .node_range import NodeRange
from .not_ready import NotReady
from .page_api_key_read import PageApiKeyRead
from .page_audit_event_read import PageAuditEventRead
from .page_chunk_read import PageChunkRead
from .page_document_read import PageDocumentRead
from .page_entity_read import PageEntityRead
from .page_evaluation_summary import PageEvaluationSummary
from .page_knowledge_base_read import PageKnowledgeBaseRead
from .page_project_read import PageProjectRead
from .page_relation_read import PageRelationRead
from .page_source_read import PageSourceRead
from .page_source_run_read import PageSourceRunRead
from .page_webhook_read import PageWebhookRead
from .paragraph_node import ParagraphNode
from .parent_section import ParentSection
from .parse_document_files_body import ParseDocumentFilesBody
from .parse_read import ParseRead
from .parse_read_metadata import ParseReadMetadata
from .parse_read_tree import ParseReadTree
from .parse_request import ParseRequest
from .parse_request_chunking_type_0 import ParseRequestChunkingType0
from .parse_request_format_type_0 import ParseRequestFormatType0
from .parsed_chunk import ParsedChunk
from .parsed_document import ParsedDocument
from .parsed_document_metadata_type_0 import ParsedDocumentMetadataType0
from .planned_item import PlannedItem
from .planned_item_action import PlannedItemAction
from .problem import Problem
from .progress import Progress
from .progress_stage import ProgressStage
from .project_create import ProjectCreate
from .project_read import ProjectRead
from .query_count import QueryCount
from .query_result import QueryResult
from .readiness import Readiness
from .record_result import RecordResult
from .record_result_op import RecordResultOp
from .record_result_result import RecordResultResult
from .record_write import RecordWrite
from .record_write_fields_type_0 import RecordWriteFieldsType0
from .record_write_metadata import RecordWriteMetadata
from .record_write_op import RecordWriteOp
from .records_push import RecordsPush
from .records_result import RecordsResult
from .relation_read import RelationRead
from .run_counts import RunCounts
from .schedule import Schedule
from .schedule_read import ScheduleRead
from .scope import Scope
from .search_analytics import SearchAnalytics
from .search_hit import SearchHit
from .search_hit_metadata import SearchHitMetadata
from .search_mode import SearchMode
from .search_request import SearchRequest
from .search_request_filter_type_0 import SearchRequestFilterType0
from .search_response import SearchResponse
from .search_response_text_queries import SearchResponseTextQueries
from .section_node import SectionNode
from .sentence_node import SentenceNode
from .source import Source
from .source_create import SourceCreate
from .source_create_kind import SourceCreateKind
from .source_create_metadata import SourceCreateMetadata
from .source_health_read import SourceHealthRead
from .source_read import SourceRead
from .source_read_access_type_0 import SourceReadAccessType0
from .source_read_config import SourceReadConfig
from .source_read_kind import SourceReadKind
from .source_read_metadata import SourceReadMetadata
from .source_run_read import SourceRunRead
from .source_run_read_status import SourceRunReadStatus
from .source_run_read_trigger import SourceRunReadTrigger
from .source_update import SourceUpdate
from .source_update_metadata_type_0 import SourceUpdateMetadataType0
from .sync_plan_read import SyncPlanRead
from .sync_plan_read_status import SyncPlanReadStatus
from .sync_plan_read_trigger import SyncPlanReadTrigger
from .sync_request import SyncRequest
from .text_match import TextMatch
from .text_statistics_read import TextStatisticsRead
from .tool_call_result import ToolCallResult
from .tool_call_result_result import ToolCallResultResult
from .tool_definition import ToolDefinition
from .tool_list import ToolList
from .tools_call_arguments import ToolsCallArguments
from .topic_node import TopicNode
from .transferred_chunk import TransferredChunk
from .transferred_chunk_metadata import TransferredChunkMetadata
from .tree_read import TreeRead
from .webhook_create import WebhookCreate
from .webhook_create_types_type_0_item import WebhookCreateTypesType0Item
from .webhook_read import WebhookRead
from .webhook_read_types_type_0_item import WebhookReadTypesType0Item
from .webhook_update import WebhookUpdate
from .webhook_update_types_type_0_item import WebhookUpdateTypesType0Item
from .webhook_with_secret import WebhookWithSecret
from .webhook_with_secret_types_type_0_item import WebhookWithSecretTypesType0Item

__all__ = (
    "Action",
    "ActionData",
    "ActionStage",
    "Analysis",
    "AnalysisSource",
    "AncestorRead",
    "AnswerMode",
    "AnswerRequest",
    "AnswerRequestFilterType0",
    "AnswerResponse",
    "AnswerResponseGenerator",
    "AnswerUsage",
    "ApiKeyCreate",
    "ApiKeyCreated",
    "ApiKeyCreatedStatus",
    "ApiKeyRead",
    "ApiKeyReadStatus",
    "AuditEventRead",
    "AuditEventReadDetailsType0",
    "AuditEventReadTarget",
    "CandidateCounts",
    "ChatTurn",
    "ChatTurnRole",
    "Check",
    "ChunkBulkItem",
    "ChunkBulkItemMetadata",
    "ChunkBulkResult",
    "ChunkBulkUpsert",
    "ChunkContext",
    "ChunkContextRequest",
    "ChunkContexts",
    "ChunkCount",
    "ChunkDeleteResult",
    "ChunkRead",
    "ChunkReadMetadata",
    "ChunkSpan",
    "ChunkUpsert",
    "ChunkUpsertMetadata",
    "Citation",
    "CommonLexeme",
    "ConfigurationResult",
    "ConfigurationResultOptions",
    "ContextNode",
    "Crawl",
    "DayCount",
    "DifyCondition",
    "DifyConditionComparisonOperator",
    "DifyError",
    "DifyMetadataCondition",
    "DifyMetadataConditionLogicalOperator",
    "DifyRecord",
    "DifyRecordMetadata",
    "DifyRetrievalRequest",
    "DifyRetrievalResponse",
    "DifyRetrievalSetting",
    "DocumentAccess",
    "DocumentBatchCreate",
    "DocumentBatchItem",
    "DocumentBatchRead",
    "DocumentCreate",
    "DocumentCreateChunkingType0",
    "DocumentCreateFormatType0",
    "DocumentCreateMetadata",
    "DocumentDeleteByFilter",
    "DocumentDeleteByFilterFilter",
    "DocumentDeleteResult",
    "DocumentFromUrl",
    "DocumentFromUrlChunkingType0",
    "DocumentFromUrlMetadata",
    "DocumentImported",
    "DocumentNode",
    "DocumentRead",
    "DocumentReadMetadata",
    "DocumentReadStatus",
    "DocumentsCreateFilesBody",
    "DocumentsListStatusType0",
    "DocumentTransfer",
    "DocumentTransferMetadata",
    "DocumentUpdate",
    "DocumentUpdateMetadata",
    "EmbeddingConfig",
    "EmbeddingConfigProvider",
    "EmbeddingConfigRead",
    "EmbeddingConfigVariantType0",
    "EmbeddingCreate",
    "EmbeddingCreateInput",
    "EmbeddingRead",
    "EmbedPendingResult",
    "EnrichmentResult",
    "EnrichmentSettings",
    "EnrichmentWrite",
    "Entity",
    "EntityDetail",
    "EntityRead",
    "EvaluationConfiguration",
    "EvaluationConfigurationFilterType0",
    "EvaluationCreate",
    "EvaluationQuery",
    "EvaluationRead",
    "EvaluationResults",
    "EvaluationsCreateFilesBody",
    "EvaluationSummary",
    "EvaluationSummaryMeasures",
    "EventPage",
    "EventRead",
    "EventReadData",
    "EventReadType",
    "EventsFollowTypeType0Item",
    "FieldError",
    "FunctionDefinition",
    "FunctionDefinitionParameters",
    "Fusion",
    "GeneratorChoice",
    "GraphEdge",
    "GraphNode",
    "GraphSearchRequest",
    "GraphSearchRequestMode",
    "GraphSearchResult",
    "GraphSearchResultActionsItem",
    "GraphSearchResultMode",
    "GraphSettings",
    "GraphSettingsExtractor",
    "GraphStatus",
    "GraphStatusJobs",
    "HitContext",
    "HitExplain",
    "HnswConfig",
    "Include",
    "Intent",
    "ItemError",
    "JobRead",
    "JobReadStatus",
    "Judgment",
    "KnowledgeBaseCopied",
    "KnowledgeBaseCopy",
    "KnowledgeBaseCopyChunking",
    "KnowledgeBaseCreate",
    "KnowledgeBaseCreateChunking",
    "KnowledgeBaseRead",
    "KnowledgeBaseReadChunking",
    "KnowledgeBaseReadSearchModesItem",
    "KnowledgeBaseUpdate",
    "KnowledgeBaseUpdateChunkingType0",
    "LatencyPercentiles",
    "Liveness",
    "Measures",
    "Mention",
    "MmrOptions",
    "MultiAnswerRequest",
    "MultiAnswerRequestFilterType0",
    "MultiSearchRequest",
    "MultiSearchRequestFilterType0",
    "NeighbourChunk",
    "NodeEnrichment",
    "NodeEnrichmentWrite",
    "NodeKind",
    "NodeRange",
    "NotReady",
    "PageApiKeyRead",
    "PageAuditEventRead",
    "PageChunkRead",
    "PageDocumentRead",
    "PageEntityRead",
    "PageEvaluationSummary",
    "PageKnowledgeBaseRead",
    "PageProjectRead",
    "PageRelationRead",
    "PageSourceRead",
    "PageSourceRunRead",
    "PageWebhookRead",
    "ParagraphNode",
    "ParentSection",
    "ParsedChunk",
    "ParsedDocument",
    "ParsedDocumentMetadataType0",
    "ParseDocumentFilesBody",
    "ParseRead",
    "ParseReadMetadata",
    "ParseReadTree",
    "ParseRequest",
    "ParseRequestChunkingType0",
    "ParseRequestFormatType0",
    "PlannedItem",
    "PlannedItemAction",
    "Problem",
    "Progress",
    "ProgressStage",
    "ProjectCreate",
    "ProjectRead",
    "QueryCount",
    "QueryResult",
    "Readiness",
    "RecordResult",
    "RecordResultOp",
    "RecordResultResult",
    "RecordsPush",
    "RecordsResult",
    "RecordWrite",
    "RecordWriteFieldsType0",
    "RecordWriteMetadata",
    "RecordWriteOp",
    "RelationRead",
    "RunCounts",
    "Schedule",
    "ScheduleRead",
    "Scope",
    "SearchAnalytics",
    "SearchHit",
    "SearchHitMetadata",
    "SearchMode",
    "SearchRequest",
    "SearchRequestFilterType0",
    "SearchResponse",
    "SearchResponseTextQueries",
    "SectionNode",
    "SentenceNode",
    "Source",
    "SourceCreate",
    "SourceCreateKind",
    "SourceCreateMetadata",
    "SourceHealthRead",
    "SourceRead",
    "SourceReadAccessType0",
    "SourceReadConfig",
    "SourceReadKind",
    "SourceReadMetadata",
    "SourceRunRead",
    "SourceRunReadStatus",
    "SourceRunReadTrigger",
    "SourceUpdate",
    "SourceUpdateMetadataType0",
    "SyncPlanRead",
    "SyncPlanReadStatus",
    "SyncPlanReadTrigger",
    "SyncRequest",
    "TextMatch",
    "TextStatisticsRead",
    "ToolCallResult",
    "ToolCallResultResult",
    "ToolDefinition",
    "ToolList",
    "ToolsCallArguments",
    "TopicNode",
    "TransferredChunk",
    "TransferredChunkMetadata",
    "TreeRead",
    "WebhookCreate",
    "WebhookCreateTypesType0Item",
    "WebhookRead",
    "WebhookReadTypesType0Item",
    "WebhookUpdate",
    "WebhookUpdateTypesType0Item",
    "WebhookWithSecret",
    "WebhookWithSecretTypesType0Item",
)
