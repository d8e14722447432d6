import textwrap

a = Value(1.0, "a")
c = a * 2.0
c.label = "c"
a.parents = (ParentLink(c, 2.0),)  # by hand: now a depends on c
try:
    backward(c)
except CycleError as error:
    print(textwrap.fill(f"CycleError: {error}", 72))
