#!/usr/bin/python3
# A screen reader's ears, for the accessibility tests: listens on the AT-SPI bus with pyatspi (the
# library Orca uses) for object:state-changed:showing, and for a NOTIFICATION that shows prints its
# role, name, description and application, then the desktop walked down to toastd's children. With
# `press`, it also presses the notification's first button through the Action interface. One JSON
# object a line; "ready" once listening. Exits after the first notification.
# With `events`, it instead prints every showing, focus change, announcement and value change as it comes
# (the source's role and name, detail1, any_data, whether its state says FOCUSED, and a progress bar's value
# as read back through Value), until killed.
import json
import sys

import pyatspi


def say(**fields):
    print(json.dumps(fields), flush=True)


def on_showing(event):
    source = event.source
    if event.detail1 != 1 or source.getRole() != pyatspi.ROLE_NOTIFICATION:
        return
    say(event=event.type, role=source.getRoleName(), name=source.name, description=source.description,
        app=source.getApplication().name)
    desktop = pyatspi.Registry.getDesktop(0)
    apps = [desktop.getChildAtIndex(i) for i in range(desktop.childCount)]
    toastd = [app for app in apps if app is not None and app.name == "toastd"]
    children = [toastd[0].getChildAtIndex(i) for i in range(toastd[0].childCount)] if toastd else []
    say(walk=[[child.getRoleName(), child.name, child.description] for child in children])
    if "press" in sys.argv:
        button = source.getChildAtIndex(0)
        action = button.queryAction()
        say(button=button.getRoleName(), label=button.name, action=action.getName(0), pressed=action.doAction(0))
    pyatspi.Registry.stop()


def on_any(event):
    source = event.source
    fields = dict(event=event.type, detail1=event.detail1, role=source.getRoleName(), name=source.name)
    if isinstance(event.any_data, (str, int, float)):
        fields["any_data"] = event.any_data
    if event.type.startswith("object:state-changed:focused"):
        fields["focused"] = source.getState().contains(pyatspi.STATE_FOCUSED)
    if source.getRole() == pyatspi.ROLE_PROGRESS_BAR:
        value = source.queryValue()
        fields.update(current=value.currentValue, maximum=value.maximumValue,
                      size=list(source.queryComponent().getSize()))
    say(**fields)


if "events" in sys.argv:
    for kind in ["object:state-changed:showing", "object:state-changed:focused", "object:announcement",
                 "object:property-change:accessible-value"]:
        pyatspi.Registry.registerEventListener(on_any, kind)
else:
    pyatspi.Registry.registerEventListener(on_showing, "object:state-changed:showing")
say(ready=True)
pyatspi.Registry.start()
