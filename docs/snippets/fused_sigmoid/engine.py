import math

from glassgrad.scratch import (ParentLink, Value, add, backward,
                               dependency_safe_order, multiply, square, subtract)
