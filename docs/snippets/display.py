# The site runs this page's code to draw it: there, show() writes each figure into
# the page. (Jupyter and plain Python need no such line: show() displays the figure,
# or writes glassgrad-figures.html.)
from glassgrad.viz import show_with

show_with(lambda figure: print(figure))
