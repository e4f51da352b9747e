from enum import StrEnum


class EmbeddingConfigVariantType0(StrEnum):
    FP32 = "fp32"
    INT8 = "int8"

    def __str__(self) -> str:
        return str(self.value)
