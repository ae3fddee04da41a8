/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/extcon-provider.h (chargesim) - the side of extcon a connector driver uses
 * (Linux 6.12's include/linux/extcon-provider.h: names and semantics; the text is
 * this project's).
 *
 * A driver allocates a device for a list of cable ids ending with EXTCON_NONE,
 * sets its parent (dev.parent: the device is registered under the parent's name, which
 * extcon_get_extcon_dev() finds) and registers it. extcon_set_state() changes a cable's
 * state without telling anyone; extcon_sync() tells the cable's notifiers and the
 * device's all-cable notifiers its state; extcon_set_state_sync() is both, and
 * notifies even when the state did not change.
 */
#ifndef CS_LINUX_EXTCON_PROVIDER_H
#define CS_LINUX_EXTCON_PROVIDER_H

#include <linux/extcon.h>

struct extcon_dev *extcon_dev_allocate(const unsigned int *cable);
void extcon_dev_free(struct extcon_dev *edev);
int extcon_dev_register(struct extcon_dev *edev);
void extcon_dev_unregister(struct extcon_dev *edev);
struct extcon_dev *devm_extcon_dev_allocate(struct device *dev, const unsigned int *cable);
void devm_extcon_dev_free(struct device *dev, struct extcon_dev *edev);
int devm_extcon_dev_register(struct device *dev, struct extcon_dev *edev);
void devm_extcon_dev_unregister(struct device *dev, struct extcon_dev *edev);

int extcon_sync(struct extcon_dev *edev, unsigned int id);
int extcon_set_state(struct extcon_dev *edev, unsigned int id, bool state);
int extcon_set_state_sync(struct extcon_dev *edev, unsigned int id, bool state);
int extcon_set_property(struct extcon_dev *edev, unsigned int id, unsigned int prop,
			union extcon_property_value prop_val);
int extcon_set_property_sync(struct extcon_dev *edev, unsigned int id, unsigned int prop,
			     union extcon_property_value prop_val);
int extcon_set_property_capability(struct extcon_dev *edev, unsigned int id,
				   unsigned int prop);

/* chargesim: a provider that reports edges, as real connector hardware interrupts on a
 * change: set and sync the cable only when its state changes (logging an `extcon`
 * record in events.jsonl first), else do nothing. 0 or a negative errno. */
int cs_extcon_report(struct extcon_dev *edev, unsigned int id, bool state);

#endif
