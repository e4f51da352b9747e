from enum import StrEnum


class DifyConditionComparisonOperator(StrEnum):
    AFTER = "after"
    BEFORE = "before"
    CONTAINS = "contains"
    EMPTY = "empty"
    END_WITH = "end with"
    IN = "in"
    IS = "is"
    IS_NOT = "is not"
    NOT_CONTAINS = "not contains"
    NOT_EMPTY = "not empty"
    NOT_IN = "not in"
    START_WITH = "start with"
    VALUE_10 = "="
    VALUE_11 = "≠"
    VALUE_12 = ">"
    VALUE_13 = "<"
    VALUE_14 = "≥"
    VALUE_15 = "≤"

    def __str__(self) -> str:
        return str(self.value)
