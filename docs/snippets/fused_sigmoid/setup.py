# Chapter 3's players: glassgrad.viz draws any graph of Values.
from glassgrad.viz import animate_backward, animate_order, side_by_side
