# Page set-up (not shown): the one import every listing below shares.
from glassgrad import CycleError, ParentLink, Value, backward  # noqa: F401
