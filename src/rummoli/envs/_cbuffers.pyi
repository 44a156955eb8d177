# The C writers of _cbuffers.c: the same functions as rummoli.envs.buffers (an array
# there, a bytearray here: both are buffers of the same bytes that numpy reads).

def action_mask(size: int, legal: list[int]) -> bytearray: ...
def features_floats(
    size: int, masks: list[int], positions: list[int], values: list[float]
) -> bytearray: ...
