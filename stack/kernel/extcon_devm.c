// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stack/kernel/extcon_devm.c - the device-managed provider calls of
 * linux/extcon-provider.h over the layer's extcon devices (stack/kernel/extcon.c).
 *
 * The kernel's own drivers/extcon/devres.c and extcon.c provide these once they are
 * compiled in from the kernel tree (issue 35, item 1); then this file goes. Until then
 * the definitions are weak, so that the kernel's win at link time.
 */
#include <string.h>
#include <linux/device.h>
#include <linux/extcon-provider.h>
#include <linux/slab.h>
#include <chargesim/kernel.h>

struct extcon_devm {
	struct extcon_dev edev;
	const unsigned int *cable;
	bool registered;
};

/* Unlink it from the run's list of extcon devices (the lookups by name). */
static void extcon_devm_release(struct device *dev, void *res)
{
	struct extcon_devm *d = res;

	(void)dev;
	if (!d->registered || !cs_kernel())
		return;
	for (struct extcon_dev **pp = &cs_kernel()->extcon_head; *pp; pp = &(*pp)->cs_next)
		if (*pp == &d->edev) {
			*pp = d->edev.cs_next;
			break;
		}
	d->registered = false;
}

__attribute__((weak)) struct extcon_dev *devm_extcon_dev_allocate(struct device *dev,
								   const unsigned int *cable)
{
	struct extcon_devm *d;

	if (!cable)
		return ERR_PTR(-EINVAL);
	d = devres_alloc(extcon_devm_release, sizeof(*d), GFP_KERNEL);
	if (!d)
		return ERR_PTR(-ENOMEM);
	d->cable = cable;
	devres_add(dev, d);
	return &d->edev;
}

__attribute__((weak)) int devm_extcon_dev_register(struct device *dev, struct extcon_dev *edev)
{
	struct extcon_devm *d = container_of(edev, struct extcon_devm, edev);

	if (!dev || !edev || !d->cable)
		return -EINVAL;
	if (d->registered)
		return -EBUSY;
	/* the kernel names the device after its parent (extcon_dev_register()) */
	cs_extcon_init(edev, dev_name(dev), d->cable);
	d->registered = true;
	return 0;
}
